-- Requests admitted by the shared rate limiter (contrato/postgres postgresRateLimiter), per bucket (one
-- credential): each row is one request, sent_at the database's clock when it was admitted. Every process
-- using the database counts the windows of section 8 over these rows under the bucket's advisory lock; the
-- limiter deletes the rows that left its longest window (margin included) from time to time.
create table rate_limit_sends (
  bucket text not null,
  sent_at timestamptz not null
);

-- Each window is read newest first from here: the limit-th newest send inside it, if any, fills it.
create index rate_limit_sends_bucket_sent_at on rate_limit_sends (bucket, sent_at);

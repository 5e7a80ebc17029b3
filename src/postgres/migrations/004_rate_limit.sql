-- Requests admitted by the shared rate limiter, per bucket (a credential): the windows of section 8 are
-- counted over these rows by every process using the same database.
create table rate_limit_sends (
  bucket text not null,
  sent_at timestamptz not null
);

create index rate_limit_sends_bucket_sent_at on rate_limit_sends (bucket, sent_at);

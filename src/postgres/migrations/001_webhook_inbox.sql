-- The inbox of received deliveries (webhooks of interface A, Pix notifications of interface B): one row per
-- dedupe key. A live claim has a token and lease_until in the future; a handled key has handled_at.
create table deliveries (
  key text primary key,
  token text,
  lease_until timestamptz,
  handled_at timestamptz,
  claimed_at timestamptz not null default now()
);

-- Pruning handled keys older than the platform's resend window reads this index.
create index deliveries_handled_at on deliveries (handled_at) where handled_at is not null;

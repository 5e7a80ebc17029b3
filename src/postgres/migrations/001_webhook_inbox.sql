-- The inbox of received deliveries (webhooks of interface A, Pix notifications of interface B): one row per
-- dedupe key. A live claim has a token and lease_until in the future (the database's clock); a handled key
-- has handled_at and no claim. A released claim is deleted, so the resend can claim the key again.
create table deliveries (
  key text primary key,
  token text,
  lease_until timestamptz,
  handled_at timestamptz,
  claimed_at timestamptz not null default now(),
  constraint deliveries_claimed_or_handled check (handled_at is not null or (token is not null and lease_until is not null))
);

-- Pruning handled keys older than the platform's resend window reads this index.
create index deliveries_handled_at on deliveries (handled_at) where handled_at is not null;

-- Claims whose holder died and whose delivery never came back are pruned through this one (few rows).
create index deliveries_abandoned on deliveries (lease_until) where handled_at is null;

-- The journal of outgoing keyed calls: written before a call is sent, settled when its outcome is known.
-- A business reference (an order id) maps to one idempotency key for good; an in-doubt row is a call that
-- may have executed without its answer reaching us, re-sent with the same key by resumeInDoubt.
create table outgoing_calls (
  operation_id text not null,
  reference text not null,
  idempotency_key text not null,
  payload_hash text not null,
  args jsonb not null,
  state text not null check (state in ('in-doubt', 'succeeded', 'failed')),
  status integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (operation_id, reference)
);

create index outgoing_calls_in_doubt on outgoing_calls (created_at) where state = 'in-doubt';

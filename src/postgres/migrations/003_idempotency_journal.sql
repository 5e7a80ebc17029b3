-- The journal of outgoing keyed calls: written before a call is sent, settled when its outcome is known.
-- A business reference (an order id) maps to one idempotency key for good, per interface (scope) and
-- operation; an in-doubt row is a call that may have executed without its answer reaching the client,
-- re-sent with the same key by resumeInDoubt; a succeeded row is never sent again. `args` is json, not jsonb:
-- it re-sends the call as written.
create table outgoing_calls (
  scope text not null,
  operation_id text not null,
  reference text not null,
  idempotency_key text not null,
  payload_hash text not null,
  args json not null,
  state text not null check (state in ('in-doubt', 'succeeded', 'failed')),
  status integer,
  -- The success answer's parsed body: the same reference again resolves with it and is not sent (the server
  -- may have forgotten the key by then). Never logged.
  result jsonb check (result is null or state = 'succeeded'),
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp(),
  primary key (scope, operation_id, reference)
);

create index outgoing_calls_in_doubt on outgoing_calls (scope, updated_at) where state = 'in-doubt';

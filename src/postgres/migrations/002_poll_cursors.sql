-- Long-poll cursors by name (interface C, section 4.9) with the lease of the one poller that may use each.
-- fence grows with every takeover, so a poller that lost its lease cannot store a cursor any more.
create table poll_cursors (
  name text primary key,
  cursor text,
  holder text,
  lease_until timestamptz,
  fence bigint not null default 0,
  updated_at timestamptz not null default now()
);

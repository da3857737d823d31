-- A live-board stream ticket opens one stream (issue 34 §3): the nonce of every ticket that opened
-- one is kept until the ticket would have expired anyway, in every process's sight.
CREATE TABLE live_ticket_spent (
  nonce varchar(40) PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX live_ticket_spent_expires_idx ON live_ticket_spent (expires_at);

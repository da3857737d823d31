-- Housekeeping (platform/ops/housekeeping.ts) deletes old rows in bounded batches. Tables with an
-- identity key are walked in key order (their oldest rows first); idempotency_key has none.
CREATE INDEX idempotency_key_created_idx ON idempotency_key (created_at);

-- Contains-filters (`ILIKE '%…%'`) on the big master tables use trigram GIN indexes: a code or
-- a name fragment of three characters or more is found through the index instead of a
-- sequential scan. pg_trgm ships with PostgreSQL (a trusted extension since 13) and with PGlite
-- (loaded by db.ts). Where the extension cannot be created the filters still work, unindexed.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): contains-filters stay unindexed', SQLERRM;
END $$;

DO $$
DECLARE
  target record;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    RETURN;
  END IF;
  FOR target IN
    SELECT * FROM (VALUES
      ('material', 'code'), ('material', 'name'), ('material', 'spec'),
      ('customer', 'code'), ('customer', 'name'),
      ('supplier', 'code'), ('supplier', 'name'),
      ('equipment', 'code'), ('equipment', 'name'),
      ('app_user', 'user_name'), ('app_user', 'first_name')
    ) AS t(tbl, col)
  LOOP
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (%I gin_trgm_ops)',
      target.tbl || '_' || target.col || '_trgm', target.tbl, target.col);
  END LOOP;
END $$;

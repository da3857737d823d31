-- Excel exports of many rows run as jobs: the browser polls their progress, and the file's owner
-- gets a message with the link when a background export is done (platform/resource/excel-export.ts).
CREATE TABLE export_job (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  title varchar(200) NOT NULL,
  file_name varchar(300) NOT NULL,
  total integer NOT NULL,
  done integer NOT NULL DEFAULT 0,
  status varchar(10) NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX export_job_user_idx ON export_job (user_id, created_at DESC);

-- The sandbox a run's process was started in (null for runs that never started a process).
ALTER TABLE airlock.runs ADD COLUMN sandbox text;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_sandbox_check CHECK (sandbox IS NULL OR sandbox IN ('BUBBLEWRAP', 'NONE'));

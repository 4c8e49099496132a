-- A run whose cgroup reached memory.max ends with its own termination, MEMORY_LIMIT (state COMPLETED,
-- like OUTPUT_LIMIT): the kernel killed it, so it has no exit code of its own.
ALTER TABLE airlock.runs DROP CONSTRAINT runs_termination_check;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_termination_check CHECK (termination IS NULL OR termination IN ('EXITED',
    'TIMEOUT', 'OUTPUT_LIMIT', 'MEMORY_LIMIT', 'CANCELLED', 'SPAWN_FAILED', 'LOST'));

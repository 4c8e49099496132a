-- Runs survive replicas: the replica executing a run holds a lease on it and renews it; when a
-- lease runs out, any live replica ends the run INTERRUPTED (termination LOST): its outcome is
-- unknown and it is never executed again automatically.
ALTER TABLE airlock.runs ADD COLUMN lease_until timestamptz;
ALTER TABLE airlock.runs DROP CONSTRAINT runs_state_check;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_state_check CHECK (state IN ('REQUESTED', 'PENDING_APPROVAL', 'APPROVED',
    'RUNNING', 'COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED', 'INTERRUPTED'));
ALTER TABLE airlock.runs DROP CONSTRAINT runs_termination_check;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_termination_check CHECK (termination IS NULL OR termination IN ('EXITED',
    'TIMEOUT', 'OUTPUT_LIMIT', 'CANCELLED', 'SPAWN_FAILED', 'LOST'));
-- Runs that were RUNNING when this version was installed have no lease yet: give them one from now.
UPDATE airlock.runs SET lease_until = now() + interval '5 minutes' WHERE state = 'RUNNING';
CREATE INDEX runs_running_lease ON airlock.runs (lease_until) WHERE state = 'RUNNING';

-- Checks the rows that existed before V12's keys (SHARE UPDATE EXCLUSIVE: writes go on). A row
-- that names another tenant than its run's stops the migration; none can be written by Airlock
-- itself, so such a row is evidence to look at (docs/database.md), not something to drop here.
ALTER TABLE airlock.approval_requests VALIDATE CONSTRAINT approval_requests_run_tenant;
ALTER TABLE restricted.raw_artifacts VALIDATE CONSTRAINT raw_artifacts_run_tenant;
ALTER TABLE restricted.raw_grants VALIDATE CONSTRAINT raw_grants_run_tenant;
ALTER TABLE airlock.legal_holds VALIDATE CONSTRAINT legal_holds_run_tenant;
ALTER TABLE airlock.audit_events VALIDATE CONSTRAINT audit_events_run_tenant;

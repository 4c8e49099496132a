-- Rows that a side writes with their own tenant column are tied to their run's tenant, so that
-- no statement (the application's or an injected one) can file a request, an artifact, a grant,
-- a hold or an audit event under one tenant for another tenant's run. Each references
-- runs (id, tenant); the single-column keys stay. The keys are added NOT VALID here (a short
-- lock; new rows are checked from now on) and existing rows are checked by V13, which blocks no
-- writes while it reads (docs/database.md has the query that lists rows it would refuse).
ALTER TABLE airlock.runs ADD CONSTRAINT runs_id_tenant UNIQUE (id, tenant);

ALTER TABLE airlock.approval_requests ADD CONSTRAINT approval_requests_run_tenant
    FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant) NOT VALID;
ALTER TABLE restricted.raw_artifacts ADD CONSTRAINT raw_artifacts_run_tenant
    FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant) NOT VALID;
ALTER TABLE restricted.raw_grants ADD CONSTRAINT raw_grants_run_tenant
    FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant) NOT VALID;
ALTER TABLE airlock.legal_holds ADD CONSTRAINT legal_holds_run_tenant
    FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant) NOT VALID;
-- An event about a run may be appended in the transaction that inserts the run, before the run's
-- row is flushed: checked at commit. Events about no run (run_id NULL) are not concerned.
ALTER TABLE airlock.audit_events ADD CONSTRAINT audit_events_run_tenant
    FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant) DEFERRABLE INITIALLY DEFERRED NOT VALID;

-- Rows that a side writes with their own tenant column are tied to their run's tenant, so that
-- no statement (the application's or an injected one) can file a request, an artifact, a grant
-- or a hold under one tenant for another tenant's run. Each references runs (id, tenant); the
-- single-column keys stay. An existing row that breaks the rule stops this migration (and so the
-- upgrade) rather than being kept.
ALTER TABLE airlock.runs ADD CONSTRAINT runs_id_tenant UNIQUE (id, tenant);

ALTER TABLE airlock.approval_requests
    ADD CONSTRAINT approval_requests_run_tenant FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant);
ALTER TABLE restricted.raw_artifacts
    ADD CONSTRAINT raw_artifacts_run_tenant FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant);
ALTER TABLE restricted.raw_grants
    ADD CONSTRAINT raw_grants_run_tenant FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant);
ALTER TABLE airlock.legal_holds
    ADD CONSTRAINT legal_holds_run_tenant FOREIGN KEY (run_id, tenant) REFERENCES airlock.runs (id, tenant);

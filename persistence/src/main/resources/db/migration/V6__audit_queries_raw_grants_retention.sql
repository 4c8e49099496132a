-- Auditors' queries, grants to raw artifacts, legal holds and retention.

-- Audit queries: every filter leads with the tenant and ends with the sort key, so that a page
-- is an index range scan however many runs the tenant has.
CREATE INDEX runs_tenant_agent_created ON airlock.runs (tenant, agent, created_at DESC, id DESC);
CREATE INDEX runs_tenant_tool_created ON airlock.runs (tenant, tool, created_at DESC, id DESC);
CREATE INDEX runs_tenant_state_created ON airlock.runs (tenant, state, created_at DESC, id DESC);
CREATE INDEX runs_tenant_exit_created ON airlock.runs (tenant, exit_code, created_at DESC, id DESC);
CREATE INDEX runs_tenant_termination_created ON airlock.runs (tenant, termination, created_at DESC, id DESC);
CREATE INDEX runs_tenant_created_id ON airlock.runs (tenant, created_at DESC, id DESC);
DROP INDEX airlock.runs_tenant_created;

CREATE INDEX approval_decisions_approver ON airlock.approval_decisions (approver, decision, run_id);
CREATE INDEX approval_decisions_decision ON airlock.approval_decisions (decision, run_id);

-- Text search in sanitized transcripts: trigram index for case-insensitive substring search.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX transcripts_text_trgm ON airlock.transcripts USING gin (text gin_trgm_ops);
CREATE INDEX transcripts_created ON airlock.transcripts (created_at);

-- A purged raw artifact keeps its digest, sizes and purge time.
ALTER TABLE restricted.raw_artifacts
    ADD COLUMN tenant        text,
    ADD COLUMN stdout_bytes  bigint,
    ADD COLUMN stderr_bytes  bigint,
    ADD COLUMN purged_at     timestamptz,
    ALTER COLUMN stdout DROP NOT NULL,
    ALTER COLUMN stderr DROP NOT NULL;
UPDATE restricted.raw_artifacts a
   SET tenant = r.tenant, stdout_bytes = length(a.stdout), stderr_bytes = length(a.stderr)
  FROM airlock.runs r WHERE r.id = a.run_id;
ALTER TABLE restricted.raw_artifacts
    ALTER COLUMN tenant SET NOT NULL,
    ALTER COLUMN stdout_bytes SET NOT NULL,
    ALTER COLUMN stderr_bytes SET NOT NULL,
    ADD CONSTRAINT raw_artifacts_purged_check CHECK ((purged_at IS NULL) = (stdout IS NOT NULL AND stderr IS NOT NULL));
CREATE INDEX raw_artifacts_retention ON restricted.raw_artifacts (tenant, created_at) WHERE purged_at IS NULL;

-- A person's time-limited access to one run's raw artifact, granted on a recorded reason.
CREATE TABLE restricted.raw_grants (
    id               uuid PRIMARY KEY,
    tenant           text NOT NULL,
    run_id           uuid NOT NULL REFERENCES restricted.raw_artifacts (run_id),
    requester        text NOT NULL,
    reason           text NOT NULL,
    status           text NOT NULL CHECK (status IN ('PENDING', 'GRANTED', 'REFUSED')),
    decided_by       text,
    decision_reason  text,
    requested_at     timestamptz NOT NULL,
    decided_at       timestamptz,
    expires_at       timestamptz NOT NULL,
    CONSTRAINT raw_grants_second_person CHECK (decided_by IS NULL OR decided_by <> requester)
);
CREATE INDEX raw_grants_tenant ON restricted.raw_grants (tenant, requested_at DESC);
CREATE INDEX raw_grants_run ON restricted.raw_grants (run_id);

-- Legal holds suspend every purge of a run while they are in force.
CREATE TABLE airlock.legal_holds (
    run_id       uuid PRIMARY KEY REFERENCES airlock.runs (id),
    tenant       text NOT NULL,
    reason       text NOT NULL,
    placed_by    text NOT NULL,
    placed_at    timestamptz NOT NULL
);
CREATE INDEX legal_holds_tenant ON airlock.legal_holds (tenant);

-- Where a tenant's audit chain starts after retention removed its oldest events. Rows are only
-- ever added; the latest one counts, and the retention event that made it names it in the chain.
CREATE TABLE airlock.audit_chain_starts (
    tenant      text NOT NULL,
    first_seq   bigint NOT NULL,
    prev_hash   text NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, first_seq)
);

CREATE TRIGGER audit_chain_starts_append_only
    BEFORE UPDATE OR DELETE ON airlock.audit_chain_starts
    FOR EACH ROW EXECUTE FUNCTION airlock.refuse_audit_change();

-- Retention is the only path that removes audit events, and it goes through one function that
-- runs as the owner of the tables (SECURITY DEFINER): it removes the oldest events of a tenant up
-- to a sequence number (a prefix of the chain, never its newest event) and records where the chain
-- now starts, in one step. The trigger lets a DELETE through only inside that function: the
-- transaction-local setting must be on AND the current user must own the table. Where the
-- application's database role does not own the tables (Flyway runs as the owner), it cannot remove
-- or change audit events even by setting the flag itself.
CREATE OR REPLACE FUNCTION airlock.refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit_events'
            AND current_setting('airlock.audit_retention', true) = 'on'
            AND pg_has_role(current_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = TG_RELID), 'USAGE') THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit events are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE FUNCTION airlock.remove_oldest_audit_events(p_tenant text, p_through bigint, p_now timestamptz)
    RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_hash    text;
    v_removed integer;
BEGIN
    IF p_through >= (SELECT max(seq) FROM airlock.audit_events WHERE tenant = p_tenant) THEN
        RAISE EXCEPTION 'the newest audit event of tenant % is never removed', p_tenant;
    END IF;
    SELECT hash INTO v_hash FROM airlock.audit_events WHERE tenant = p_tenant AND seq = p_through;
    IF v_hash IS NULL THEN
        RAISE EXCEPTION 'tenant % has no audit event %', p_tenant, p_through;
    END IF;
    PERFORM set_config('airlock.audit_retention', 'on', true);
    DELETE FROM airlock.audit_events WHERE tenant = p_tenant AND seq <= p_through;
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    PERFORM set_config('airlock.audit_retention', 'off', true);
    INSERT INTO airlock.audit_chain_starts (tenant, first_seq, prev_hash, recorded_at)
    VALUES (p_tenant, p_through + 1, v_hash, p_now);
    RETURN v_removed;
END;
$$;

-- The digest of each tenant's configuration as last loaded: a new one is a config.changed event.
ALTER TABLE airlock.tenants
    ADD COLUMN config_sha256 text,
    ADD COLUMN config_changed_at timestamptz;

-- Separation of duties enforced by PostgreSQL (docs/database.md).
--
-- The owner (who runs these migrations) owns every table and function. The application works
-- as one of two roles, chosen per transaction: airlock_gateway (the agent side) and
-- airlock_console (the human side). Neither may change or delete audit events; the gateway may
-- not record decisions, grants or holds, nor read raw bytes; the console may not change a run's
-- result, a transcript or a raw artifact, and reads raw bytes only through restricted.read_raw,
-- which checks a grant and records the use. Row-level security keeps each transaction to the
-- tenants it names in the setting airlock.tenants (a text[] literal, SET LOCAL by the application).

DO $$
DECLARE
    v_role text;
BEGIN
    FOREACH v_role IN ARRAY ARRAY['airlock_gateway', 'airlock_console'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = v_role) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', v_role);
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'role % does not exist and % may not create roles', v_role, current_user
                    USING HINT = 'Create the roles airlock_gateway and airlock_console first (docs/database.md), then migrate again.';
            END;
        END IF;
    END LOOP;
END;
$$;

-- Nothing for PUBLIC: a role that is neither side sees nothing.
REVOKE ALL ON ALL TABLES IN SCHEMA airlock FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA restricted FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA airlock FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION airlock.remove_oldest_audit_events(text, bigint, timestamptz) FROM PUBLIC;
GRANT USAGE ON SCHEMA airlock, restricted TO airlock_gateway, airlock_console;

-- The tenants the current transaction may touch; empty when the application named none.
CREATE FUNCTION airlock.current_tenants() RETURNS text[] LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp AS $$
    SELECT coalesce(nullif(current_setting('airlock.tenants', true), ''), '{}')::text[]
$$;
GRANT EXECUTE ON FUNCTION airlock.current_tenants() TO airlock_gateway, airlock_console;

-- The check every owner function makes before it touches a tenant's rows.
CREATE FUNCTION airlock.require_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF (p_tenant = ANY (airlock.current_tenants())) IS NOT TRUE THEN
        RAISE EXCEPTION 'tenant % is not this transaction''s', p_tenant USING ERRCODE = 'insufficient_privilege';
    END IF;
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.require_tenant(text) FROM PUBLIC;

-- Configuration (written by whichever side starts; agent keys are stored as SHA-256 only).
GRANT SELECT, INSERT, UPDATE ON airlock.tenants, airlock.agents TO airlock_gateway, airlock_console;
GRANT SELECT, INSERT ON airlock.tool_snapshots TO airlock_gateway, airlock_console;
GRANT USAGE ON SEQUENCE airlock.tool_snapshots_id_seq TO airlock_gateway, airlock_console;

-- Runs and what they returned: the gateway writes, the console reads.
GRANT SELECT, INSERT ON airlock.runs TO airlock_gateway;
GRANT UPDATE (state, cancel_requested, claimed_by, exit_code, termination, failure, updated_at, started_at, ended_at,
    version, lease_until, sandbox) ON airlock.runs TO airlock_gateway;
GRANT SELECT, INSERT, UPDATE ON airlock.run_streams TO airlock_gateway;
GRANT SELECT, INSERT ON airlock.transcripts TO airlock_gateway;
GRANT SELECT ON airlock.runs, airlock.run_streams, airlock.transcripts TO airlock_console;

-- Raw artifacts: written by the gateway, described to both, their bytes to nobody directly.
GRANT INSERT ON restricted.raw_artifacts TO airlock_gateway;
GRANT SELECT (run_id, tenant, sha256, stdout_bytes, stderr_bytes, redactions, created_at, purged_at)
    ON restricted.raw_artifacts TO airlock_gateway, airlock_console;
GRANT SELECT, INSERT, UPDATE ON restricted.raw_grants TO airlock_console;

-- Approvals: the gateway opens requests and closes pending ones its agent cancelled (policies
-- below); the console records decisions and closes requests.
GRANT SELECT, INSERT ON airlock.approval_requests TO airlock_gateway;
GRANT UPDATE (status, closed_at, version) ON airlock.approval_requests TO airlock_gateway;
GRANT SELECT ON airlock.approval_requests TO airlock_console;
GRANT UPDATE (status, closed_at, version) ON airlock.approval_requests TO airlock_console;
GRANT SELECT ON airlock.approval_decisions TO airlock_gateway;
GRANT SELECT, INSERT ON airlock.approval_decisions TO airlock_console;
GRANT USAGE ON SEQUENCE airlock.approval_decisions_id_seq TO airlock_console;

-- Legal holds, people's tokens and sign-in throttling: the human side only.
GRANT SELECT, INSERT, DELETE ON airlock.legal_holds TO airlock_console;
GRANT SELECT, INSERT, UPDATE ON airlock.access_tokens TO airlock_console;
GRANT SELECT, INSERT, UPDATE, DELETE ON airlock.login_failures, airlock.login_lockouts TO airlock_console;
GRANT USAGE ON SEQUENCE airlock.login_failures_id_seq TO airlock_console;

-- The audit log: both append and read; the triggers refuse every change, and removing the
-- oldest events is the retention function's alone (run by the console side's retention job).
GRANT SELECT, INSERT ON airlock.audit_events TO airlock_gateway, airlock_console;
GRANT SELECT ON airlock.audit_chain_starts TO airlock_gateway, airlock_console;
GRANT EXECUTE ON FUNCTION airlock.remove_oldest_audit_events(text, bigint, timestamptz) TO airlock_console;

-- Row-level security: every tenant-owned table shows and accepts the transaction's tenants only.
DO $$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['airlock.tool_snapshots', 'airlock.runs', 'airlock.approval_requests',
            'airlock.legal_holds', 'airlock.audit_events', 'airlock.audit_chain_starts', 'restricted.raw_artifacts',
            'restricted.raw_grants'] LOOP
        EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE format('CREATE POLICY tenant_scope ON %s TO airlock_gateway, airlock_console '
                || 'USING (tenant = ANY (airlock.current_tenants())) WITH CHECK (tenant = ANY (airlock.current_tenants()))',
                v_table);
    END LOOP;
    FOREACH v_table IN ARRAY ARRAY['airlock.run_streams', 'airlock.transcripts'] LOOP
        EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE format('CREATE POLICY tenant_scope ON %s TO airlock_gateway, airlock_console USING (EXISTS ('
                || 'SELECT 1 FROM airlock.runs r WHERE r.id = run_id AND r.tenant = ANY (airlock.current_tenants()))) '
                || 'WITH CHECK (EXISTS (SELECT 1 FROM airlock.runs r WHERE r.id = run_id '
                || 'AND r.tenant = ANY (airlock.current_tenants())))', v_table);
    END LOOP;
END;
$$;

ALTER TABLE airlock.approval_decisions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_scope ON airlock.approval_decisions TO airlock_gateway, airlock_console
    USING (EXISTS (SELECT 1 FROM airlock.approval_requests a
                    WHERE a.run_id = approval_decisions.run_id AND a.tenant = ANY (airlock.current_tenants())))
    WITH CHECK (EXISTS (SELECT 1 FROM airlock.approval_requests a
                    WHERE a.run_id = approval_decisions.run_id AND a.tenant = ANY (airlock.current_tenants())));

-- The gateway opens requests only as PENDING and changes only pending ones, only to CANCELLED.
CREATE POLICY gateway_opens_pending ON airlock.approval_requests AS RESTRICTIVE FOR INSERT TO airlock_gateway
    WITH CHECK (status = 'PENDING' AND closed_at IS NULL);
CREATE POLICY gateway_cancels_pending ON airlock.approval_requests AS RESTRICTIVE FOR UPDATE TO airlock_gateway
    USING (status = 'PENDING') WITH CHECK (status IN ('PENDING', 'CANCELLED'));

-- Every read of raw bytes, by whom, through which grant.
CREATE TABLE restricted.raw_reads (
    id            bigserial PRIMARY KEY,
    grant_id      uuid NOT NULL REFERENCES restricted.raw_grants (id),
    tenant        text NOT NULL,
    run_id        uuid NOT NULL,
    reader        text NOT NULL,
    stream        text NOT NULL CHECK (stream IN ('stdout', 'stderr')),
    offset_bytes  bigint NOT NULL,
    bytes         bigint NOT NULL,
    read_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX raw_reads_grant ON restricted.raw_reads (grant_id);
ALTER TABLE restricted.raw_reads ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_scope ON restricted.raw_reads TO airlock_console USING (tenant = ANY (airlock.current_tenants()));
GRANT SELECT ON restricted.raw_reads TO airlock_console;

-- The one way to raw bytes: a GRANTED, unexpired grant of one of the transaction's tenants,
-- held by p_reader. The read is recorded in the same transaction; the whole artifact is hashed
-- inside the database so that its digest can be checked without any other byte leaving it.
CREATE FUNCTION restricted.read_raw(p_grant uuid, p_reader text, p_stream text, p_offset integer, p_length integer)
    RETURNS TABLE (bytes bytea, stream_bytes bigint, recorded_sha256 text, actual_sha256 text, purged_at timestamptz)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    g restricted.raw_grants%ROWTYPE;
BEGIN
    IF p_stream IS NULL OR p_stream NOT IN ('stdout', 'stderr') THEN
        RAISE EXCEPTION 'no stream %', p_stream USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT * INTO g FROM restricted.raw_grants WHERE id = p_grant FOR SHARE;
    IF NOT FOUND OR (g.tenant = ANY (airlock.current_tenants())) IS NOT TRUE THEN
        RAISE EXCEPTION 'no grant % in this transaction''s tenants', p_grant USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF g.status <> 'GRANTED' OR g.requester IS DISTINCT FROM p_reader OR g.expires_at <= now() THEN
        RAISE EXCEPTION 'grant % does not let % read raw bytes now', p_grant, p_reader USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY
        SELECT substring(CASE WHEN p_stream = 'stdout' THEN a.stdout ELSE a.stderr END FROM greatest(p_offset, 0) + 1
                         FOR greatest(p_length, 0)),
               CASE WHEN p_stream = 'stdout' THEN a.stdout_bytes ELSE a.stderr_bytes END,
               a.sha256,
               encode(sha256(convert_to('airlock-raw-artifact-v1' || chr(10) || 'stdout ' || length(a.stdout) || chr(10), 'UTF8')
                   || a.stdout || convert_to('stderr ' || length(a.stderr) || chr(10), 'UTF8') || a.stderr), 'hex'),
               a.purged_at
          FROM restricted.raw_artifacts a WHERE a.run_id = g.run_id AND a.tenant = g.tenant;
    IF NOT FOUND THEN
        RETURN;  -- no artifact of the grant's tenant: nothing read, nothing to record
    END IF;
    INSERT INTO restricted.raw_reads (grant_id, tenant, run_id, reader, stream, offset_bytes, bytes)
    VALUES (g.id, g.tenant, g.run_id, p_reader, p_stream, greatest(p_offset, 0),
            (SELECT coalesce(length(substring(CASE WHEN p_stream = 'stdout' THEN a.stdout ELSE a.stderr END
                     FROM greatest(p_offset, 0) + 1 FOR greatest(p_length, 0))), 0)
               FROM restricted.raw_artifacts a WHERE a.run_id = g.run_id AND a.tenant = g.tenant));
END;
$$;
REVOKE EXECUTE ON FUNCTION restricted.read_raw(uuid, text, text, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION restricted.read_raw(uuid, text, text, integer, integer) TO airlock_console;

-- A closed approval request decides its run: the console records the decision, the database
-- moves the run (the console has no UPDATE on runs). Returns the run's new state, or null when
-- the run had already left PENDING_APPROVAL (possible only for an expiry).
CREATE FUNCTION airlock.settle_approval(p_run uuid, p_now timestamptz) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_status text;
    v_tenant text;
    v_state  text;
BEGIN
    SELECT status, tenant INTO v_status, v_tenant FROM airlock.approval_requests WHERE run_id = p_run;
    IF v_status IS NULL OR (v_tenant = ANY (airlock.current_tenants())) IS NOT TRUE THEN
        RAISE EXCEPTION 'no approval request for run % in this transaction''s tenants', p_run
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF v_status NOT IN ('APPROVED', 'DENIED', 'EXPIRED') THEN
        RAISE EXCEPTION 'the approval request of run % is %, not decided', p_run, v_status
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE airlock.runs
       SET state = v_status, updated_at = p_now,
           ended_at = CASE WHEN v_status = 'APPROVED' THEN ended_at ELSE p_now END, version = version + 1
     WHERE id = p_run AND state = 'PENDING_APPROVAL'
    RETURNING state INTO v_state;
    IF v_state IS NULL AND v_status <> 'EXPIRED' THEN
        RAISE EXCEPTION 'run % is no longer waiting for approval', p_run USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN v_state;
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.settle_approval(uuid, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.settle_approval(uuid, timestamptz) TO airlock_console;

-- Retention (the console side's job): the only path by which records are removed. It removes
-- only what is older than the cut-offs and not under a legal hold, for one of the
-- transaction's tenants; the audit events go through remove_oldest_audit_events.
CREATE FUNCTION airlock.purge_retained(p_tenant text, p_raw_before timestamptz, p_transcripts_before timestamptz,
        p_approvals_before timestamptz, p_now timestamptz) RETURNS integer[]
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_raw         integer;
    v_transcripts integer;
    v_approvals   integer;
    v_ids         uuid[];
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    UPDATE restricted.raw_artifacts a SET stdout = NULL, stderr = NULL, purged_at = p_now
     WHERE a.tenant = p_tenant AND a.purged_at IS NULL AND a.created_at < p_raw_before
       AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = a.run_id);
    GET DIAGNOSTICS v_raw = ROW_COUNT;
    DELETE FROM airlock.transcripts t USING airlock.runs r
     WHERE r.id = t.run_id AND r.tenant = p_tenant AND t.created_at < p_transcripts_before
       AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = t.run_id);
    GET DIAGNOSTICS v_transcripts = ROW_COUNT;
    SELECT coalesce(array_agg(a.run_id), '{}') INTO v_ids FROM airlock.approval_requests a
     WHERE a.tenant = p_tenant AND a.status <> 'PENDING' AND a.created_at < p_approvals_before
       AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = a.run_id);
    DELETE FROM airlock.approval_decisions WHERE run_id = ANY (v_ids);
    DELETE FROM airlock.approval_requests WHERE run_id = ANY (v_ids);
    GET DIAGNOSTICS v_approvals = ROW_COUNT;
    RETURN ARRAY[v_raw, v_transcripts, v_approvals];
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.purge_retained(text, timestamptz, timestamptz, timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.purge_retained(text, timestamptz, timestamptz, timestamptz, timestamptz) TO airlock_console;

-- The last step of retention: run rows (with their stream facts, artifact remnant, grants and
-- reads) that nothing links to any longer.
CREATE FUNCTION airlock.purge_unlinked_runs(p_tenant text, p_before timestamptz) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_runs integer;
    v_ids  uuid[];
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    SELECT coalesce(array_agg(r.id), '{}') INTO v_ids FROM airlock.runs r
     WHERE r.tenant = p_tenant AND r.created_at < p_before
       AND r.state IN ('COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED')
       AND NOT EXISTS (SELECT 1 FROM airlock.transcripts t WHERE t.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM airlock.approval_requests a WHERE a.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM airlock.audit_events e WHERE e.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM restricted.raw_artifacts x WHERE x.run_id = r.id AND x.purged_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = r.id);
    DELETE FROM restricted.raw_reads WHERE run_id = ANY (v_ids);
    DELETE FROM restricted.raw_grants WHERE run_id = ANY (v_ids);
    DELETE FROM restricted.raw_artifacts WHERE run_id = ANY (v_ids);
    DELETE FROM airlock.run_streams WHERE run_id = ANY (v_ids);
    DELETE FROM airlock.runs WHERE id = ANY (v_ids);
    GET DIAGNOSTICS v_runs = ROW_COUNT;
    RETURN v_runs;
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.purge_unlinked_runs(text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.purge_unlinked_runs(text, timestamptz) TO airlock_console;

-- Only a decision approves a run: no application role may write a run into APPROVED (the owner's
-- settle_approval does, from a closed request), nor park one for approval without marking it as
-- needing it; the gateway's UPDATE is limited to the execution columns above.
CREATE FUNCTION airlock.guard_run_state() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF pg_has_role(current_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = TG_RELID), 'USAGE') THEN
        RETURN NEW;
    END IF;
    IF NEW.state = 'APPROVED' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'APPROVED') THEN
        RAISE EXCEPTION 'run %: only a decision approves a run', NEW.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.state = 'PENDING_APPROVAL' AND NOT NEW.approval_required THEN
        RAISE EXCEPTION 'run %: a run waiting for approval needs approval', NEW.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER runs_guard_state BEFORE INSERT OR UPDATE ON airlock.runs
    FOR EACH ROW EXECUTE FUNCTION airlock.guard_run_state();

-- Each side appends only the kinds of audit events it records, so that neither can write the
-- other's facts (the gateway no decision, the console no process result).
CREATE POLICY gateway_event_types ON airlock.audit_events AS RESTRICTIVE FOR INSERT TO airlock_gateway
    WITH CHECK (type IN ('run.requested', 'run.started', 'run.finished', 'run.failed', 'run.cancelled', 'run.interrupted',
        'approval.requested', 'approval.cancelled', 'config.changed'));
CREATE POLICY console_event_types ON airlock.audit_events AS RESTRICTIVE FOR INSERT TO airlock_console
    WITH CHECK (type IN ('approval.decided', 'approval.expired', 'raw.grant.requested', 'raw.grant.decided',
        'raw.grant.used', 'raw.digest.mismatch', 'legal-hold.placed', 'legal-hold.released', 'retention.purged',
        'login.locked', 'config.changed'));

-- The retention function of V6, for one of the transaction's tenants only: V6's body stays as it
-- is under another name, which only the owner may call, behind a check of the tenant.
ALTER FUNCTION airlock.remove_oldest_audit_events(text, bigint, timestamptz) RENAME TO remove_oldest_audit_events_unchecked;
REVOKE EXECUTE ON FUNCTION airlock.remove_oldest_audit_events_unchecked(text, bigint, timestamptz) FROM airlock_console;
CREATE FUNCTION airlock.remove_oldest_audit_events(p_tenant text, p_through bigint, p_now timestamptz)
    RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    RETURN airlock.remove_oldest_audit_events_unchecked(p_tenant, p_through, p_now);
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.remove_oldest_audit_events(text, bigint, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.remove_oldest_audit_events(text, bigint, timestamptz) TO airlock_console;

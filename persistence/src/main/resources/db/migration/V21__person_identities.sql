-- A person's stable identity beside their user name (docs/approvals.md, "One person, one decision"): `password:<user>`
-- for configured people, `oidc:<registration>:<subject>` for OpenID Connect sign-ins. A configured
-- person and an OpenID Connect person may share a name, and an OpenID Connect person's name may
-- change at the provider; the rules that must tell people apart (nobody decides twice, the
-- requester of raw access alone uses it, nobody decides their own raw-access request) compare
-- identities. Rows written before this migration have no identity: a grant without one is never
-- usable nor decided (its requester asks again), and decisions without one still count by name.
ALTER TABLE airlock.approval_decisions ADD COLUMN approver_identity text;
-- One decision per identity and run, as V2 has one per name (NULLs, the older rows, never clash).
CREATE UNIQUE INDEX approval_decisions_identity ON airlock.approval_decisions (run_id, approver_identity);

ALTER TABLE restricted.raw_grants ADD COLUMN requester_identity text;
ALTER TABLE restricted.raw_grants ADD COLUMN decided_by_identity text;
ALTER TABLE restricted.raw_grants ADD CONSTRAINT raw_grants_second_identity
    CHECK (decided_by_identity IS NULL OR decided_by_identity IS DISTINCT FROM requester_identity);
-- A person's decision carries their identity (older decided rows are left as they are).
ALTER TABLE restricted.raw_grants ADD CONSTRAINT raw_grants_decider_identified
    CHECK (decided_by IS NULL OR decided_by_identity IS NOT NULL) NOT VALID;
-- The console records decisions; who asked, for which run and under which identity it may not change.
REVOKE UPDATE ON restricted.raw_grants FROM airlock_console;
GRANT UPDATE (status, decided_by, decided_by_identity, decision_reason, decided_at, expires_at)
    ON restricted.raw_grants TO airlock_console;

-- Every read names the reader's identity too.
ALTER TABLE restricted.raw_reads ADD COLUMN reader_identity text;

-- The one way to raw bytes, now held by an identity: a GRANTED, unexpired grant of one of the
-- transaction's tenants whose requester's identity is p_reader_identity (a grant recorded
-- without one is never read). p_reader is the name recorded with the read.
CREATE FUNCTION restricted.read_raw(
        p_grant uuid, p_reader text, p_reader_identity text, p_stream text, p_offset integer, p_length integer)
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
    IF g.status <> 'GRANTED' OR g.requester_identity IS NULL OR p_reader_identity IS NULL
            OR g.requester_identity <> p_reader_identity OR g.expires_at <= now() THEN
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
    INSERT INTO restricted.raw_reads (grant_id, tenant, run_id, reader, reader_identity, stream, offset_bytes, bytes)
    VALUES (g.id, g.tenant, g.run_id, p_reader, p_reader_identity, p_stream, greatest(p_offset, 0),
            (SELECT coalesce(length(substring(CASE WHEN p_stream = 'stdout' THEN a.stdout ELSE a.stderr END
                     FROM greatest(p_offset, 0) + 1 FOR greatest(p_length, 0))), 0)
               FROM restricted.raw_artifacts a WHERE a.run_id = g.run_id AND a.tenant = g.tenant));
END;
$$;
REVOKE EXECUTE ON FUNCTION restricted.read_raw(uuid, text, text, text, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION restricted.read_raw(uuid, text, text, text, integer, integer) TO airlock_console;

-- The reading by name alone, which a console of an earlier version still calls while a rolling
-- upgrade replaces it: it stays, and refuses every read, saying why (nothing is read by name).
CREATE OR REPLACE FUNCTION restricted.read_raw(p_grant uuid, p_reader text, p_stream text, p_offset integer, p_length integer)
    RETURNS TABLE (bytes bytea, stream_bytes bigint, recorded_sha256 text, actual_sha256 text, purged_at timestamptz)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION 'raw bytes are read by the reader''s identity since migration V21: this console is older than its database, upgrade it'
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

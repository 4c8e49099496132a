-- Row-level security without a join per row (docs/database.md, docs/benchmarks.md#row-level-security).
--
-- V10's policies on run_streams, transcripts and approval_decisions looked up each row's run (or
-- request) to find its tenant. On the audit queries that walk many decisions that lookup made a
-- page up to 40 times slower. These tables now carry the tenant themselves: a trigger copies it
-- from the run (or the request) on insert, as the inserting role sees it, so a row whose run the
-- transaction cannot see gets no tenant and is refused; the policies compare a column.

ALTER TABLE airlock.run_streams ADD COLUMN tenant text;
ALTER TABLE airlock.transcripts ADD COLUMN tenant text;
ALTER TABLE airlock.approval_decisions ADD COLUMN tenant text;

UPDATE airlock.run_streams s SET tenant = r.tenant FROM airlock.runs r WHERE r.id = s.run_id;
UPDATE airlock.transcripts t SET tenant = r.tenant FROM airlock.runs r WHERE r.id = t.run_id;
UPDATE airlock.approval_decisions d SET tenant = a.tenant FROM airlock.approval_requests a WHERE a.run_id = d.run_id;

ALTER TABLE airlock.run_streams ALTER COLUMN tenant SET NOT NULL;
ALTER TABLE airlock.transcripts ALTER COLUMN tenant SET NOT NULL;
ALTER TABLE airlock.approval_decisions ALTER COLUMN tenant SET NOT NULL;

CREATE FUNCTION airlock.tenant_of_run() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    -- A decision belongs to its approval request, stream facts and transcripts to their run.
    IF TG_TABLE_NAME = 'approval_decisions' THEN
        NEW.tenant := (SELECT a.tenant FROM airlock.approval_requests a WHERE a.run_id = NEW.run_id);
    ELSE
        NEW.tenant := (SELECT r.tenant FROM airlock.runs r WHERE r.id = NEW.run_id);
    END IF;
    IF NEW.tenant IS NULL THEN
        RAISE EXCEPTION 'no % of run % in this transaction''s tenants',
            CASE WHEN TG_TABLE_NAME = 'approval_decisions' THEN 'approval request' ELSE 'run' END, NEW.run_id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER run_streams_tenant BEFORE INSERT OR UPDATE OF run_id, tenant ON airlock.run_streams
    FOR EACH ROW EXECUTE FUNCTION airlock.tenant_of_run();
CREATE TRIGGER transcripts_tenant BEFORE INSERT OR UPDATE OF run_id, tenant ON airlock.transcripts
    FOR EACH ROW EXECUTE FUNCTION airlock.tenant_of_run();
CREATE TRIGGER approval_decisions_tenant BEFORE INSERT OR UPDATE OF run_id, tenant ON airlock.approval_decisions
    FOR EACH ROW EXECUTE FUNCTION airlock.tenant_of_run();

DO $$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['airlock.run_streams', 'airlock.transcripts', 'airlock.approval_decisions'] LOOP
        EXECUTE format('DROP POLICY tenant_scope ON %s', v_table);
        EXECUTE format('CREATE POLICY tenant_scope ON %s TO airlock_gateway, airlock_console '
                || 'USING (tenant = ANY (airlock.current_tenants())) WITH CHECK (tenant = ANY (airlock.current_tenants()))',
                v_table);
    END LOOP;
END;
$$;

-- The same function, inlinable: a function with SET clauses is never inlined, so V10's was called
-- once per row a policy checked. Its one function call is schema-qualified instead.
CREATE OR REPLACE FUNCTION airlock.current_tenants() RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(pg_catalog.current_setting('airlock.tenants', true), ''), '{}')::pg_catalog.text[]
$$;
ALTER FUNCTION airlock.current_tenants() RESET ALL;

-- Text search under row-level security: ILIKE is not leakproof, so PostgreSQL will not use the
-- trigram index of a table with policies before the policy has been checked row by row, and a
-- search for a rare phrase became a scan of every transcript. This owner function searches one
-- tenant's transcripts through the index, for a tenant of the calling transaction only, and
-- returns at most p_limit run ids (a run whose two streams match comes twice).
CREATE FUNCTION airlock.transcript_matches(p_tenant text, p_pattern text, p_limit integer) RETURNS SETOF uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    RETURN QUERY SELECT t.run_id FROM airlock.transcripts t
                  WHERE t.tenant = p_tenant AND t.text ILIKE p_pattern LIMIT p_limit;
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.transcript_matches(text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.transcript_matches(text, text, integer) TO airlock_console;

-- The other way round, for text that matches many transcripts: walk the runs in order and probe
-- each one's transcripts. Under row-level security PostgreSQL estimates ILIKE blindly (it keeps a
-- leaky operator away from the column statistics) and chose a scan of every transcript; probing
-- through this owner function keeps it to the run's own rows, by primary key.
CREATE FUNCTION airlock.transcript_contains(p_run uuid, p_pattern text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM airlock.transcripts t
                    WHERE t.run_id = p_run AND t.tenant = ANY (airlock.current_tenants()) AND t.text ILIKE p_pattern)
$$;
REVOKE EXECUTE ON FUNCTION airlock.transcript_contains(uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.transcript_contains(uuid, text) TO airlock_console;

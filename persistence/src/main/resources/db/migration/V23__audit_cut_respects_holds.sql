-- The audit cut checked in the database, not only in the application: the console's role could
-- call remove_oldest_audit_events past the first event of a run under legal hold, or through the
-- newest event, and AuditLog.removeOldest was the only thing that computed the limit. Both are now
-- refused by the function itself.
CREATE OR REPLACE FUNCTION airlock.remove_oldest_audit_events(p_tenant text, p_through bigint, p_now timestamptz)
    RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    IF EXISTS (SELECT 1 FROM airlock.audit_events e JOIN airlock.legal_holds h ON h.run_id = e.run_id
                WHERE e.tenant = p_tenant AND e.seq <= p_through) THEN
        RAISE EXCEPTION 'tenant %: the events through % include those of a run under legal hold', p_tenant, p_through
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_through >= (SELECT max(seq) FROM airlock.audit_events WHERE tenant = p_tenant) THEN
        RAISE EXCEPTION 'tenant %: the newest audit event is never removed', p_tenant
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN airlock.remove_oldest_audit_events_unchecked(p_tenant, p_through, p_now);
END;
$$;

-- The audit cut checks legal holds in the database, not only in the application: the console's
-- role could call remove_oldest_audit_events past the first event of a run under legal hold, and
-- AuditLog.removeOldest was the only thing that computed that limit. (That the newest event is
-- never removed, the function has checked since V6.)
CREATE OR REPLACE FUNCTION airlock.remove_oldest_audit_events(p_tenant text, p_through bigint, p_now timestamptz)
    RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    IF EXISTS (SELECT 1 FROM airlock.legal_holds h JOIN airlock.audit_events e ON e.run_id = h.run_id
                WHERE h.tenant = p_tenant AND e.tenant = p_tenant AND e.seq <= p_through) THEN
        RAISE EXCEPTION 'tenant %: the events through % include those of a run under legal hold', p_tenant, p_through
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN airlock.remove_oldest_audit_events_unchecked(p_tenant, p_through, p_now);
END;
$$;

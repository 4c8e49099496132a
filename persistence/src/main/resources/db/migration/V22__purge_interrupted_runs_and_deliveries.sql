-- Retention's last step, again: an INTERRUPTED run (a terminal state since V8) was never purged,
-- so its row (arguments, command line, HTTP request) outlived its transcripts and audit events,
-- and a range bundle over its time then listed a run without a run.requested event. The
-- notification deliveries of a purged run (each with its last error) now go with it.
CREATE OR REPLACE FUNCTION airlock.purge_unlinked_runs(p_tenant text, p_before timestamptz) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_runs integer;
    v_ids  uuid[];
BEGIN
    PERFORM airlock.require_tenant(p_tenant);
    SELECT coalesce(array_agg(r.id), '{}') INTO v_ids FROM airlock.runs r
     WHERE r.tenant = p_tenant AND r.created_at < p_before
       AND r.state IN ('COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED', 'INTERRUPTED')
       AND NOT EXISTS (SELECT 1 FROM airlock.transcripts t WHERE t.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM airlock.approval_requests a WHERE a.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM airlock.audit_events e WHERE e.run_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM restricted.raw_artifacts x WHERE x.run_id = r.id AND x.purged_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = r.id);
    DELETE FROM airlock.notification_deliveries WHERE tenant = p_tenant AND run_id = ANY (v_ids);
    DELETE FROM restricted.raw_reads WHERE run_id = ANY (v_ids);
    DELETE FROM restricted.raw_grants WHERE run_id = ANY (v_ids);
    DELETE FROM restricted.raw_artifacts WHERE run_id = ANY (v_ids);
    DELETE FROM airlock.run_streams WHERE run_id = ANY (v_ids);
    DELETE FROM airlock.runs WHERE id = ANY (v_ids);
    GET DIAGNOSTICS v_runs = ROW_COUNT;
    RETURN v_runs;
END;
$$;

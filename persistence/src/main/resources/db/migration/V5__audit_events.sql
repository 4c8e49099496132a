-- The audit event log: append-only, per tenant, hash-chained. Each event stores the hash of the
-- previous event of its tenant, so that changing or removing any event breaks the chain from
-- there on. The trigger refuses UPDATE and DELETE for every role the application uses.

CREATE TABLE airlock.audit_events (
    tenant       text NOT NULL,
    seq          bigint NOT NULL,
    type         text NOT NULL,
    run_id       uuid,
    actor        text NOT NULL,
    details      text NOT NULL,
    occurred_at  timestamptz NOT NULL,
    prev_hash    text NOT NULL,
    hash         text NOT NULL,
    PRIMARY KEY (tenant, seq)
);

CREATE INDEX audit_events_run ON airlock.audit_events (run_id) WHERE run_id IS NOT NULL;

CREATE FUNCTION airlock.refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_events_append_only
    BEFORE UPDATE OR DELETE ON airlock.audit_events
    FOR EACH ROW EXECUTE FUNCTION airlock.refuse_audit_change();

CREATE TRIGGER audit_events_no_truncate
    BEFORE TRUNCATE ON airlock.audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION airlock.refuse_audit_change();

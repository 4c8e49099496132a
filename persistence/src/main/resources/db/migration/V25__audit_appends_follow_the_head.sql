-- An audit event is appended only at the head of its tenant's chain: its seq one past the newest
-- event's (or where the chain starts, for a tenant without events) and its prev_hash that event's
-- hash. Before this, either side's role could insert a row at any seq: one planted at the largest
-- bigint made every later append of its tenant fail (the application numbers from the newest
-- event) and could never be removed (retention never removes the newest event), so decisions,
-- grants, holds and retention of that tenant stopped for good; one planted far below the head was
-- never verified. Whether the event's own hash is right is not checked here (the canonical form is
-- the verifier's): a wrong one is what `audit verify` reports as a broken chain.
--
-- The trigger takes the tenant's append lock, the one the application takes before it reads the
-- head (re-entrant within a transaction), so no two transactions can both see the same head.
-- It runs as the tables' owner, so that it sees the tenant's head whatever scope the inserting
-- role's row-level security gives it.
CREATE FUNCTION airlock.audit_event_follows_head() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_seq  bigint;
    v_hash text;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('airlock-audit:' || NEW.tenant));
    SELECT seq + 1, hash INTO v_seq, v_hash
      FROM airlock.audit_events WHERE tenant = NEW.tenant ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        SELECT first_seq, prev_hash INTO v_seq, v_hash
          FROM airlock.audit_chain_starts WHERE tenant = NEW.tenant ORDER BY first_seq DESC LIMIT 1;
        IF NOT FOUND THEN
            v_seq := 1;
            v_hash := repeat('0', 64);
        END IF;
    END IF;
    IF NEW.seq IS DISTINCT FROM v_seq OR NEW.prev_hash IS DISTINCT FROM v_hash THEN
        RAISE EXCEPTION 'an audit event of tenant % is appended at seq % after hash %, not at seq % after hash %',
            NEW.tenant, v_seq, v_hash, NEW.seq, NEW.prev_hash USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;
REVOKE EXECUTE ON FUNCTION airlock.audit_event_follows_head() FROM PUBLIC;

CREATE TRIGGER audit_events_follow_the_head
    BEFORE INSERT ON airlock.audit_events
    FOR EACH ROW EXECUTE FUNCTION airlock.audit_event_follows_head();

-- Every run's end is announced, in the transaction that writes it, on the channel airlock_run_ended
-- (the payload is the run's id; NOTIFY delivers it to listeners once the transaction has committed).
-- Replicas listening wake the requests waiting for that run (?wait, MCP calls), which then read its
-- state once, instead of every 200 ms. A trigger rather than each writer: every way a run ends (its
-- result, a cancel, a decision, an expiry, a lease run out, a spooled result) announces it, including
-- ways added later. An announcement is only a cue to read the run: a listener trusts the state it reads,
-- never the payload (any role of the database may NOTIFY on any channel).
--
-- A transaction that notifies fails at its commit when the server's notification queue is full (a
-- session that listens and stays idle in a transaction holds the queue's tail back). A run's end must
-- never depend on that: past half the queue, ends are not announced, and waiting requests find them
-- by reading (every airlock.executor.wait-recheck-interval), as they would without a listener.
CREATE FUNCTION airlock.announce_run_end() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF pg_notification_queue_usage() < 0.5 THEN
        PERFORM pg_notify('airlock_run_ended', NEW.id::text);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER runs_announce_end AFTER UPDATE OF state ON airlock.runs
    FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state
          AND NEW.state IN ('COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED', 'INTERRUPTED'))
    EXECUTE FUNCTION airlock.announce_run_end();

-- Whether a run is recorded at all, whatever tenants the session may see: a replica replaying a
-- result it spooled drops it only when its run is truly gone (retention removed it), not when the
-- run belongs to a tenant the replica is no longer configured for (row-level security hides it).
CREATE FUNCTION airlock.run_recorded(p_run uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM airlock.runs WHERE id = p_run)
$$;
REVOKE EXECUTE ON FUNCTION airlock.run_recorded(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION airlock.run_recorded(uuid) TO airlock_gateway;

-- Evidence bundles (docs/evidence.md): the console side records each export in the tenant's chain.
DROP POLICY console_event_types ON airlock.audit_events;
CREATE POLICY console_event_types ON airlock.audit_events AS RESTRICTIVE FOR INSERT TO airlock_console
    WITH CHECK (type IN ('approval.decided', 'approval.expired', 'raw.grant.requested', 'raw.grant.decided',
        'raw.grant.used', 'raw.digest.mismatch', 'legal-hold.placed', 'legal-hold.released', 'retention.purged',
        'login.locked', 'config.changed', 'evidence.exported'));

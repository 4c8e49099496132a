-- Chat and e-mail notifications of approval requests (docs/approvals.md#channels): one row per
-- message, so that each is sent once however many replicas there are (the insert is the claim),
-- and so that what was sent, what failed and how many attempts it took can be read back.
CREATE TABLE airlock.notification_deliveries (
    id          bigserial   PRIMARY KEY,
    tenant      text        NOT NULL REFERENCES airlock.tenants (name),
    run_id      uuid        NOT NULL,
    channel     text        NOT NULL,
    event       text        NOT NULL CHECK (event IN ('approval.requested', 'approval.reminder', 'approval.escalated',
                                                      'approval.decided')),
    status      text        NOT NULL CHECK (status IN ('SENDING', 'SENT', 'FAILED')),
    attempts    integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error  text,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    UNIQUE (run_id, channel, event)
);
CREATE INDEX notification_deliveries_tenant ON airlock.notification_deliveries (tenant, created_at);

ALTER TABLE airlock.notification_deliveries ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_scope ON airlock.notification_deliveries TO airlock_gateway, airlock_console
    USING (tenant = ANY (airlock.current_tenants())) WITH CHECK (tenant = ANY (airlock.current_tenants()));
-- Either side announces what it opened or closed; the console side also reminds and escalates.
GRANT SELECT, INSERT, UPDATE ON airlock.notification_deliveries TO airlock_gateway, airlock_console;
GRANT USAGE ON SEQUENCE airlock.notification_deliveries_id_seq TO airlock_gateway, airlock_console;

-- Upstream MCP servers (docs/mcp-upstreams.md): every definition of a server's tool Airlock has
-- seen, by the SHA-256 of its canonical form. A tool is offered to agents only under a definition
-- whose status is APPROVED: the definitions of a server's first listing are approved when they are
-- seen (trust on first use); a definition seen later (a changed description or schema, a new tool)
-- waits as PENDING until a tenant administrator approves or rejects it in the console.
CREATE TABLE airlock.mcp_tool_definitions (
    tenant       text        NOT NULL REFERENCES airlock.tenants (name),
    server       text        NOT NULL,
    tool         text        NOT NULL,
    sha256       text        NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    definition   text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('APPROVED', 'PENDING', 'REJECTED')),
    first_seen   timestamptz NOT NULL,
    decided_by   text,
    decided_at   timestamptz,
    PRIMARY KEY (tenant, server, tool, sha256),
    CHECK ((status = 'PENDING') = (decided_at IS NULL))
);

ALTER TABLE airlock.mcp_tool_definitions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_scope ON airlock.mcp_tool_definitions TO airlock_gateway, airlock_console
    USING (tenant = ANY (airlock.current_tenants())) WITH CHECK (tenant = ANY (airlock.current_tenants()));
-- The agent side records what it sees (approved only as a server's first listing); only people decide.
GRANT SELECT, INSERT ON airlock.mcp_tool_definitions TO airlock_gateway;
GRANT SELECT, UPDATE (status, decided_by, decided_at) ON airlock.mcp_tool_definitions TO airlock_console;

DROP POLICY gateway_event_types ON airlock.audit_events;
CREATE POLICY gateway_event_types ON airlock.audit_events AS RESTRICTIVE FOR INSERT TO airlock_gateway
    WITH CHECK (type IN ('run.requested', 'run.started', 'run.finished', 'run.failed', 'run.cancelled', 'run.interrupted',
        'approval.requested', 'approval.cancelled', 'config.changed', 'mcp.tool.pinned', 'mcp.tool.changed'));
DROP POLICY console_event_types ON airlock.audit_events;
CREATE POLICY console_event_types ON airlock.audit_events AS RESTRICTIVE FOR INSERT TO airlock_console
    WITH CHECK (type IN ('approval.decided', 'approval.expired', 'raw.grant.requested', 'raw.grant.decided',
        'raw.grant.used', 'raw.digest.mismatch', 'legal-hold.placed', 'legal-hold.released', 'retention.purged',
        'login.locked', 'config.changed', 'evidence.exported', 'mcp.tool.approved', 'mcp.tool.rejected'));

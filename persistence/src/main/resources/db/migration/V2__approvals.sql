-- Approval requests and the decisions humans make on them. Execution never updates these
-- rows: an approval authorizes an action, it never vouches for what the action returned.

CREATE TABLE airlock.approval_requests (
    run_id              uuid PRIMARY KEY REFERENCES airlock.runs (id),
    tenant              text NOT NULL,
    tool                text NOT NULL,
    agent               text NOT NULL,
    requester           text,
    action              text NOT NULL,
    digest              text NOT NULL,
    approvers_required  integer NOT NULL CHECK (approvers_required >= 1),
    status              text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'DENIED', 'EXPIRED')),
    created_at          timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL,
    closed_at           timestamptz,
    version             bigint NOT NULL DEFAULT 0
);

CREATE INDEX approval_requests_pending ON airlock.approval_requests (tenant, created_at DESC) WHERE status = 'PENDING';
CREATE INDEX approval_requests_expiry ON airlock.approval_requests (expires_at) WHERE status = 'PENDING';

CREATE TABLE airlock.approval_decisions (
    id          bigserial PRIMARY KEY,
    run_id      uuid NOT NULL REFERENCES airlock.approval_requests (run_id),
    approver    text NOT NULL,
    decision    text NOT NULL CHECK (decision IN ('APPROVE', 'DENY')),
    reason      text,
    digest      text NOT NULL,
    decided_at  timestamptz NOT NULL,
    UNIQUE (run_id, approver)
);

-- Airlock's own records live in schema "airlock"; raw bytes as observed live apart, in
-- schema "restricted", reached only through the raw artifact store.

CREATE TABLE airlock.tenants (
    name        text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE airlock.agents (
    tenant      text NOT NULL REFERENCES airlock.tenants (name),
    name        text NOT NULL,
    key_sha256  text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, name)
);

-- Every distinct definition a tool has had; a run points at the one it was requested under.
CREATE TABLE airlock.tool_snapshots (
    id          bigserial PRIMARY KEY,
    tenant      text NOT NULL REFERENCES airlock.tenants (name),
    tool        text NOT NULL,
    sha256      text NOT NULL,
    definition  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant, tool, sha256)
);

CREATE TABLE airlock.runs (
    id                 uuid PRIMARY KEY,
    tenant             text NOT NULL REFERENCES airlock.tenants (name),
    agent              text NOT NULL,
    tool               text NOT NULL,
    tool_snapshot_id   bigint NOT NULL REFERENCES airlock.tool_snapshots (id),
    arguments          text NOT NULL,
    argv               text NOT NULL,
    request_sha256     text NOT NULL,
    idempotency_key    text,
    state              text NOT NULL,
    approval_required  boolean NOT NULL,
    cancel_requested   boolean NOT NULL DEFAULT false,
    claimed_by         text,
    exit_code          integer,
    termination        text,
    failure            text,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    started_at         timestamptz,
    ended_at           timestamptz,
    version            bigint NOT NULL DEFAULT 0,
    CONSTRAINT runs_state_check CHECK (state IN ('REQUESTED', 'PENDING_APPROVAL', 'APPROVED', 'RUNNING',
        'COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED')),
    CONSTRAINT runs_termination_check CHECK (termination IS NULL OR termination IN ('EXITED', 'TIMEOUT',
        'OUTPUT_LIMIT', 'CANCELLED', 'SPAWN_FAILED'))
);

CREATE UNIQUE INDEX runs_idempotency_key ON airlock.runs (tenant, agent, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX runs_claimable ON airlock.runs (created_at) WHERE state = 'APPROVED';
CREATE INDEX runs_tenant_created ON airlock.runs (tenant, created_at DESC);

-- What Airlock observed of each stream: facts only Airlock writes.
CREATE TABLE airlock.run_streams (
    run_id          uuid NOT NULL REFERENCES airlock.runs (id),
    stream          text NOT NULL CHECK (stream IN ('stdout', 'stderr')),
    observed_bytes  bigint NOT NULL,
    retained_bytes  bigint NOT NULL,
    truncated       boolean NOT NULL,
    eof             boolean NOT NULL,
    sha256          text NOT NULL,
    removed         text NOT NULL,
    redactions      bigint NOT NULL,
    PRIMARY KEY (run_id, stream)
);

-- Sanitized text, kept under its own retention.
CREATE TABLE airlock.transcripts (
    run_id      uuid NOT NULL REFERENCES airlock.runs (id),
    stream      text NOT NULL CHECK (stream IN ('stdout', 'stderr')),
    text        text NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (run_id, stream)
);

-- Raw bytes as observed (up to the retained bound), apart from everything an agent can reach.
CREATE TABLE restricted.raw_artifacts (
    run_id      uuid PRIMARY KEY,
    sha256      text NOT NULL,
    stdout      bytea NOT NULL,
    stderr      bytea NOT NULL,
    created_at  timestamptz NOT NULL
);

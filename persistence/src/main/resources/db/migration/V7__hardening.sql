-- A cancelled run closes its approval request; requests left open by cancelled runs before this
-- version are closed here, so the expiry job never meets them again.
ALTER TABLE airlock.approval_requests DROP CONSTRAINT approval_requests_status_check;
ALTER TABLE airlock.approval_requests
    ADD CONSTRAINT approval_requests_status_check
        CHECK (status IN ('PENDING', 'APPROVED', 'DENIED', 'EXPIRED', 'CANCELLED'));

UPDATE airlock.approval_requests a
   SET status = 'CANCELLED', closed_at = coalesce(r.ended_at, now()), version = a.version + 1
  FROM airlock.runs r
 WHERE r.id = a.run_id AND a.status = 'PENDING' AND r.state = 'CANCELLED';

-- Personal access tokens get a stable owner identity (password:<user> or oidc:<registration>:<subject>),
-- scopes and an expiry. Tokens made before this version had none of these and acted with every
-- right of whoever shared their owner's user name: they are revoked here.
ALTER TABLE airlock.access_tokens
    ADD COLUMN identity    text,
    ADD COLUMN scopes      text,
    ADD COLUMN authorities text,
    ADD COLUMN expires_at  timestamptz;
UPDATE airlock.access_tokens
   SET identity = 'password:' || owner, scopes = '', expires_at = created_at,
       revoked_at = coalesce(revoked_at, now());
ALTER TABLE airlock.access_tokens
    ALTER COLUMN identity SET NOT NULL,
    ALTER COLUMN scopes SET NOT NULL,
    ALTER COLUMN expires_at SET NOT NULL;
CREATE INDEX access_tokens_identity ON airlock.access_tokens (identity, created_at DESC);

-- Failed sign-ins, for throttling password guessing across replicas.
CREATE TABLE airlock.login_failures (
    id          bigserial PRIMARY KEY,
    username    text NOT NULL,
    address     text NOT NULL,
    failed_at   timestamptz NOT NULL
);
CREATE INDEX login_failures_username ON airlock.login_failures (username, failed_at DESC);
CREATE INDEX login_failures_address ON airlock.login_failures (address, failed_at DESC);

CREATE TABLE airlock.login_lockouts (
    subject      text PRIMARY KEY,
    locked_until timestamptz NOT NULL
);

-- The raw artifact keeps what the tool printed, not the credentials Airlock injected: their values are
-- replaced before the bytes are stored, and how many were replaced is kept with the artifact.
ALTER TABLE restricted.raw_artifacts ADD COLUMN redactions bigint NOT NULL DEFAULT 0;

-- Personal access tokens: a person creates one in the console for a bot, which then acts on the
-- approver API with that person's roles. Only the SHA-256 of a token is stored.
CREATE TABLE airlock.access_tokens (
    id            uuid PRIMARY KEY,
    owner         text NOT NULL,
    name          text NOT NULL,
    token_sha256  text NOT NULL UNIQUE,
    created_at    timestamptz NOT NULL,
    last_used_at  timestamptz,
    revoked_at    timestamptz
);

CREATE INDEX access_tokens_owner ON airlock.access_tokens (owner, created_at DESC);

-- The digest people approve is the SHA-256 of the action they are shown (its UTF-8 bytes, in
-- lower-case hex), as Airlock computes it and the evidence verifier checks it. Either side's role
-- inserts requests; without this a request could show one action and carry the digest of another,
-- and a person's approval of what they read would be recorded as the approval of something else.
-- NOT VALID: checked for every row written from now on, without reading the rows already there; a
-- row written before that does not match may still be closed as expired, cancelled or denied, never
-- approved (and the application refuses every decision on it).
ALTER TABLE airlock.approval_requests
    ADD CONSTRAINT approval_requests_digest_is_the_actions
    CHECK (status IN ('EXPIRED', 'CANCELLED', 'DENIED')
           OR digest = encode(sha256(convert_to(action, 'UTF8')), 'hex')) NOT VALID;

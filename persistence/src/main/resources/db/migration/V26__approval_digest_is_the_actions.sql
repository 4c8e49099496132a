-- The digest people approve is the SHA-256 of the action they are shown (its UTF-8 bytes, in
-- lower-case hex), as Airlock computes it and the evidence verifier checks it. Either side's role
-- inserts requests; without this a request could show one action and carry the digest of another,
-- and a person's approval of what they read would be recorded as the approval of something else.
-- NOT VALID: checked for every row written from now on, without locking the table to hash the rows
-- already there (a decision on an old row that does not match is refused by the application).
ALTER TABLE airlock.approval_requests
    ADD CONSTRAINT approval_requests_digest_is_the_actions
    CHECK (digest = encode(sha256(convert_to(action, 'UTF8')), 'hex')) NOT VALID;

-- A configured person's token acted for whoever was configured under its owner's name when it was
-- used: a name given to someone else later revived the tokens of the person who had it before. A
-- token now records a digest of its person (identity and password setting) and acts only while that
-- person is the one configured. Tokens of configured people made before this version have no such
-- record, and cannot be told from a successor's: they are revoked here (their owners create new ones).
ALTER TABLE airlock.access_tokens ADD COLUMN person_sha256 text;
UPDATE airlock.access_tokens
   SET revoked_at = now()
 WHERE identity LIKE 'password:%' AND revoked_at IS NULL;

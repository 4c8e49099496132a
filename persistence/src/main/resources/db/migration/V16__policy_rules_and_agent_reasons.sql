-- The policy rule that decided a run ("rule 2: args.namespace == \"prod\"", or "the tool's own
-- settings"; null for runs requested before rules existed) and the agent's own words on why it
-- asks (untrusted, sanitized and bounded before they are stored; never part of a decision). Both
-- are recorded with the run and, for a run that waits for people, with its approval request.
ALTER TABLE airlock.runs ADD COLUMN policy_rule text;
ALTER TABLE airlock.runs ADD COLUMN agent_reason text;
ALTER TABLE airlock.approval_requests ADD COLUMN policy_rule text;
ALTER TABLE airlock.approval_requests ADD COLUMN agent_reason text;

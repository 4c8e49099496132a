-- The approver group a tool or its deciding rule names to tell of a request (docs/approvals.md#channels);
-- null: the people's configuration routes the request by its tool.
ALTER TABLE airlock.approval_requests ADD COLUMN notify_group text;

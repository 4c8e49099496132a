-- Whether approving (not only denying) needs a reason, as the tool's policy said when the request opened.
ALTER TABLE airlock.approval_requests ADD COLUMN approve_reason_required boolean NOT NULL DEFAULT false;

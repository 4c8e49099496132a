-- The people's list of requests (GET /api/v1/approvals?status=all) is read a page at a time,
-- newest first within the person's tenants, the run id breaking ties: this index serves each page
-- without sorting every request the tenant has kept (400 days by default).
CREATE INDEX approval_requests_newest ON airlock.approval_requests (tenant, created_at DESC, run_id DESC);

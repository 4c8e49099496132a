-- A run's action is a process, an HTTP request (an HTTP tool) or a call to an upstream MCP server's
-- tool. For the last two the run records the request as it will be sent, credentials excepted
-- (request, JSON), and what Airlock observed of the call (call, JSON: status, attempts, selected
-- headers, why it failed); argv stays the process's argument vector and is [] for them.
ALTER TABLE airlock.runs ADD COLUMN kind text NOT NULL DEFAULT 'PROCESS';
ALTER TABLE airlock.runs ADD CONSTRAINT runs_kind_check CHECK (kind IN ('PROCESS', 'HTTP', 'MCP'));
ALTER TABLE airlock.runs ADD COLUMN request text;
ALTER TABLE airlock.runs ADD COLUMN call text;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_request_check CHECK ((kind = 'PROCESS') = (request IS NULL));
ALTER TABLE airlock.runs ADD CONSTRAINT runs_sandbox_process_check CHECK (kind = 'PROCESS' OR sandbox IS NULL);

-- How a call ended: the upstream responded (whatever the status), timed out, could not be reached,
-- was not tried because its circuit breaker is open, sent more than its limit, was refused by the
-- address guard; an upstream MCP server answered with a JSON-RPC error or was down.
ALTER TABLE airlock.runs DROP CONSTRAINT runs_termination_check;
ALTER TABLE airlock.runs ADD CONSTRAINT runs_termination_check CHECK (termination IS NULL OR termination IN ('EXITED',
    'TIMEOUT', 'OUTPUT_LIMIT', 'MEMORY_LIMIT', 'CANCELLED', 'SPAWN_FAILED', 'LOST', 'RESPONDED', 'TIMED_OUT',
    'CONNECT_FAILED', 'CIRCUIT_OPEN', 'RESPONSE_LIMIT', 'REFUSED', 'UPSTREAM_ERROR', 'SERVER_DOWN'));

GRANT UPDATE (call) ON airlock.runs TO airlock_gateway;

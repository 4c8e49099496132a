#!/usr/bin/env bash
# HTTP-tool benchmark (see docs/benchmarks.md#http-tools): a local upstream (HttpToolLoad.java serve)
# on 127.0.0.1, the gateway jar on embedded PostgreSQL with load.yaml plus an upstream and an HTTP
# tool "ping" pointing at it, then one client process that measures direct calls to the upstream
# and the same calls through the gateway's HTTP tool, with the same concurrency, and prints both
# rates, their ratio and the p50 the gateway adds. Everything stays on 127.0.0.1.
#
# Usage: benchmarks/load/http-tool-load.sh [AGENTS=16] [CALLS_PER_AGENT=200]
set -euo pipefail
export LC_NUMERIC=C
cd "$(dirname "$0")/../.."
AGENTS=${1:-16}
CALLS=${2:-200}
PORT=${PORT:-18090}
UPSTREAM_PORT=${UPSTREAM_PORT:-18099}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

[ -f gateway-api/target/airlock-gateway.jar ] || ./mvnw -q -DskipTests package

WORK=$(mktemp -d "${TMPDIR:-/tmp}/airlock-http-load.XXXXXX")
PIDS=()
cleanup() {
  set +e
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
  [ -f "$WORK/data/postgres/postmaster.pid" ] && kill "$(head -1 "$WORK/data/postgres/postmaster.pid")" 2>/dev/null && sleep 2
  rm -rf "$WORK"
}
trap cleanup EXIT

"$JAVA" benchmarks/load/HttpToolLoad.java serve "$UPSTREAM_PORT" > "$WORK/upstream.log" 2>&1 &
PIDS+=($!)
cat > "$WORK/http.yaml" <<YAML
airlock:
  tenants:
    load:
      upstreams:
        local:
          base-url: http://127.0.0.1:$UPSTREAM_PORT/v1
          allow-private-network: true
          max-concurrent-calls: 64
      tools:
        ping:
          http: { upstream: local, path: /ping }
          annotations: { read-only-hint: true }
YAML
# shellcheck disable=SC2086
"$JAVA" -Xmx1g ${GATEWAY_OPTS:-} -jar gateway-api/target/airlock-gateway.jar --server.port="$PORT" \
  --airlock.data-dir="$WORK/data" --spring.config.additional-location="file:benchmarks/load/load.yaml,file:$WORK/http.yaml" \
  --logging.level.dev.airlock=WARN > "$WORK/gateway.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 240); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null || { echo "the gateway did not start:" >&2; tail -40 "$WORK/gateway.log" >&2; exit 1; }
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$UPSTREAM_PORT/v1/ping" >/dev/null && break; sleep 0.5; done
"$JAVA" benchmarks/load/HttpToolLoad.java measure "http://127.0.0.1:$PORT" "http://127.0.0.1:$UPSTREAM_PORT" "$AGENTS" "$CALLS"

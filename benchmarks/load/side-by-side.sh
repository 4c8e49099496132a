#!/usr/bin/env bash
# Two gateways measured side by side in one sitting (see docs/benchmarks.md): A and B, each on its
# own embedded PostgreSQL in a temporary data directory, both warmed up, then measured in ROUNDS
# alternating rounds of AGENTS agents x RUNS runs of tool `true` (LoadClient.java's rows, with the
# CPU per run by /proc accounting), the other gateway stopped (SIGSTOP) while one is measured; then
# both gateways' resident memory. Sittings on one machine differ by +-20 %; this compares two jars
# or two JVM sizings under the same conditions.
#
# Usage: benchmarks/load/side-by-side.sh
# Environment (all optional):
#   A_JAR, B_JAR    the gateway jars (default: gateway-api/target/airlock-gateway.jar for both)
#   A_OPTS, B_OPTS  their JVM options (default: -Xms256m -Xmx256m)
#   A_ENV, B_ENV    environment assignments for each, e.g. MALLOC_ARENA_MAX=2
#   ROUNDS (2), AGENTS (16), RUNS (300), WARMUP (100 runs per agent), PORT (18101 and the next)
set -euo pipefail
export LC_NUMERIC=C
cd "$(dirname "$0")/../.."
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
DEFAULT_JAR=gateway-api/target/airlock-gateway.jar
A_JAR=${A_JAR:-$DEFAULT_JAR}
B_JAR=${B_JAR:-$DEFAULT_JAR}
A_OPTS=${A_OPTS:--Xms256m -Xmx256m}
B_OPTS=${B_OPTS:--Xms256m -Xmx256m}
ROUNDS=${ROUNDS:-2}
AGENTS=${AGENTS:-16}
RUNS=${RUNS:-300}
WARMUP=${WARMUP:-100}
PORT=${PORT:-18101}
[ -f "$A_JAR" ] && [ -f "$B_JAR" ] || ./mvnw -q -DskipTests package

declare -A PID DIR URL
cleanup() {
  set +e
  local g
  for g in "${!PID[@]}"; do kill -CONT "${PID[$g]}" 2>/dev/null; kill "${PID[$g]}" 2>/dev/null; done
  for g in "${!PID[@]}"; do wait "${PID[$g]}" 2>/dev/null; done
  for g in "${!DIR[@]}"; do
    [ -f "${DIR[$g]}/postgres/postmaster.pid" ] && kill "$(head -1 "${DIR[$g]}/postgres/postmaster.pid")" 2>/dev/null && sleep 2
    rm -rf "${DIR[$g]}"
  done
}
trap cleanup EXIT

# start NAME PORT JAR OPTS ENV: starts a gateway and waits until it is healthy (at most 2 minutes).
start() {
  local name=$1 port=$2 jar=$3 opts=$4 envs=$5
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    echo "port $port is in use: set PORT (this script uses PORT and PORT+1)" >&2
    exit 1
  fi
  DIR[$name]=$(mktemp -d "${TMPDIR:-/tmp}/airlock-side-$name.XXXXXX")
  # shellcheck disable=SC2086
  env $envs "$JAVA" $opts -jar "$jar" --server.port="$port" --airlock.data-dir="${DIR[$name]}" \
    --spring.config.additional-location=file:benchmarks/load/load.yaml --logging.level.dev.airlock=WARN \
    > "${DIR[$name]}/gateway.log" 2>&1 &
  PID[$name]=$!
  URL[$name]=http://127.0.0.1:$port
  for _ in $(seq 1 600); do
    curl -sf "${URL[$name]}/actuator/health" >/dev/null && return 0
    kill -0 "${PID[$name]}" 2>/dev/null || break
    sleep 0.2
  done
  echo "gateway $name did not start; the end of its log:" >&2
  tail -40 "${DIR[$name]}/gateway.log" >&2
  exit 1
}

echo "A: $A_JAR $A_OPTS ${A_ENV:-}"
echo "B: $B_JAR $B_OPTS ${B_ENV:-}"
start A "$PORT" "$A_JAR" "$A_OPTS" "${A_ENV:-}"
start B "$((PORT + 1))" "$B_JAR" "$B_OPTS" "${B_ENV:-}"
for g in A B; do
  echo "warming up $g ($AGENTS agents x $WARMUP runs)" >&2
  "$JAVA" benchmarks/load/LoadClient.java throughput "${URL[$g]}" "$AGENTS" "$WARMUP" load-agent-key >/dev/null
done
for r in $(seq 1 "$ROUNDS"); do
  for g in A B; do
    other=$([ "$g" = A ] && echo B || echo A)
    kill -STOP "${PID[$other]}"
    GATEWAY_PID=${PID[$g]} POSTGRES_PID=$(head -1 "${DIR[$g]}/postgres/postmaster.pid") \
      "$JAVA" benchmarks/load/LoadClient.java "${URL[$g]}" "$AGENTS" "$RUNS" | grep '^RESULT' | sed "s/^/$g round $r: /"
    kill -CONT "${PID[$other]}"
  done
done
for g in A B; do
  echo "$g resident memory: $(( $(awk '/^VmRSS:/ {print $2}' "/proc/${PID[$g]}/status") / 1024 )) MiB"
done

#!/usr/bin/env bash
# Load benchmark of the gateway on this machine (see docs/benchmarks.md).
# Starts the gateway jar on embedded PostgreSQL in a temporary data directory, on localhost,
# then measures in one client process, with the same concurrency: a bare ProcessBuilder spawn
# loop of `true`, the same spawn in the gateway's own bubblewrap sandbox (its exact command line,
# read from /proc), and the gateway running a trivial tool; then one run with 1 GiB of output
# (with the gateway's heap sampled by jstat). Every loop is bounded; the gateway is stopped at
# the end. Needs bubblewrap (the gateway's default sandbox); run it as the user the gateway runs as.
#
# Usage: benchmarks/load/gateway-load.sh [AGENTS] [RUNS_PER_AGENT]
# Environment: SKIP_BIG=1 skips the 1 GiB run; GATEWAY_OPTS adds JVM options to the gateway
# (for example -XX:StartFlightRecording=filename=/tmp/gateway.jfr,settings=profile).
set -euo pipefail
cd "$(dirname "$0")/../.."
AGENTS=${1:-16}
RUNS=${2:-100}
PORT=${PORT:-18080}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JSTAT=${JAVA_HOME:+$JAVA_HOME/bin/}jstat

[ -f gateway-api/target/airlock-gateway.jar ] || ./mvnw -q -DskipTests package
DATA=$(mktemp -d)
# shellcheck disable=SC2086
"$JAVA" -Xmx1g ${GATEWAY_OPTS:-} -jar gateway-api/target/airlock-gateway.jar --server.port="$PORT" --airlock.data-dir="$DATA" \
  --spring.config.additional-location=file:benchmarks/load/load.yaml --logging.level.dev.airlock=WARN \
  > "$DATA/gateway.log" 2>&1 &
GATEWAY=$!
trap 'kill $GATEWAY 2>/dev/null; wait $GATEWAY 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break
  sleep 0.5
done
echo "Gateway up (pid $GATEWAY); $AGENTS agents x $RUNS runs"
"$JAVA" benchmarks/load/LoadClient.java "http://127.0.0.1:$PORT" "$AGENTS" "$RUNS"

[ -n "${SKIP_BIG:-}" ] && exit 0
heap_kb() { "$JSTAT" -gc "$GATEWAY" | awk 'NR==2 {print int($3+$4+$6+$8)}'; }
BEFORE=$(heap_kb)
( MAX=0; while kill -0 "$GATEWAY" 2>/dev/null; do H=$(heap_kb); [ "$H" -gt "$MAX" ] && MAX=$H && echo "$MAX" > "$DATA/heap-max"; sleep 0.2; done ) &
SAMPLER=$!
"$JAVA" benchmarks/load/BigOutput.java "http://127.0.0.1:$PORT"
kill $SAMPLER 2>/dev/null || true
MAX=$(cat "$DATA/heap-max" 2>/dev/null || echo "$BEFORE")
echo "| heap during the 1 GiB run | before ${BEFORE} KiB | peak ${MAX} KiB | growth $(( (MAX - BEFORE) / 1024 )) MiB |"

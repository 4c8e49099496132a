#!/usr/bin/env bash
# Evidence bundle benchmark (docs/benchmarks.md#evidence-bundles): starts the gateway jar on
# embedded PostgreSQL in a temporary data directory on localhost, with a tenant that signs
# evidence; makes RUNS real runs of a trivial tool through the agent API; exports them all as
# one bundle as an auditor while jstat samples the gateway's heap; then verifies the bundle with
# the offline verifier jar, timed against sha256sum reading the same file (the baseline).
#
# Usage: benchmarks/load/evidence-load.sh [RUNS] [HEAP]     (defaults: 10000 runs, -Xmx512m)
set -euo pipefail
export LC_NUMERIC=C
cd "$(dirname "$0")/../.."
RUNS=${1:-10000}
HEAP=${2:-512m}
PORT=${PORT:-18090}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JSTAT=${JAVA_HOME:+$JAVA_HOME/bin/}jstat

[ -f gateway-api/target/airlock-gateway.jar ] && [ -f evidence-verifier/target/airlock-evidence-verifier.jar ] \
  || ./mvnw -q -DskipTests package

DIR=$(mktemp -d "${TMPDIR:-/tmp}/airlock-evidence.XXXXXX")
GATEWAY=
cleanup() {
  set +e
  [ -n "$GATEWAY" ] && kill "$GATEWAY" 2>/dev/null && wait "$GATEWAY" 2>/dev/null
  [ -f "$DIR/data/postgres/postmaster.pid" ] && kill "$(head -1 "$DIR/data/postgres/postmaster.pid")" 2>/dev/null && sleep 2
  rm -rf "$DIR"
}
trap cleanup EXIT

PUBLIC=$("$JAVA" benchmarks/load/EvidenceLoad.java keygen "$DIR")
KEY=evidence-load-key
cat > "$DIR/evidence.yaml" <<YAML
airlock:
  users:
    alice: { password: "{bcrypt}\$2a\$10\$Tf2VLkwmu2PQbcTX1D0tueT92mArQNOAvJqSKU2ixYiRk/VglkKwG", roles: { ev: [AUDITOR] } }
  tenants:
    ev:
      limits: { concurrent-runs: 64, runs-per-minute-per-agent: 100000000, reads-per-minute-per-agent: 100000000, pending-approvals-per-agent: 100000000, concurrent-waits: 1000 }
      evidence:
        signing-key: bench
        keys:
          bench: { public-key: "$PUBLIC", private-key: "file:$DIR/evidence.pem" }
      agents:
        agent: { key-sha256: "$(printf %s "$KEY" | sha256sum | cut -d' ' -f1)" }
      tools:
        "true":
          argv: ["true"]
YAML

"$JAVA" -Xmx"$HEAP" -jar gateway-api/target/airlock-gateway.jar --server.port="$PORT" --airlock.data-dir="$DIR/data" \
  --spring.config.additional-location="file:$DIR/evidence.yaml" --logging.level.dev.airlock=WARN \
  --logging.level.dev.airlock.approval.audit.evidence=INFO > "$DIR/gateway.log" 2>&1 &
GATEWAY=$!
for _ in $(seq 1 240); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break
  kill -0 "$GATEWAY" 2>/dev/null || { tail -40 "$DIR/gateway.log"; exit 1; }
  sleep 0.5
done
echo "Gateway up (pid $GATEWAY, -Xmx$HEAP); making $RUNS runs"
"$JAVA" benchmarks/load/EvidenceLoad.java runs "http://127.0.0.1:$PORT" "$KEY" true "$RUNS" 16

heap_kb() { "$JSTAT" -gc "$GATEWAY" | awk 'NR==2 {print int($3+$4+$6+$8)}'; }
"${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" "$GATEWAY" GC.run >/dev/null
BEFORE=$(heap_kb)
( MAX=0; while kill -0 "$GATEWAY" 2>/dev/null; do H=$(heap_kb); [ "$H" -gt "$MAX" ] && MAX=$H && echo "$MAX" > "$DIR/heap-max"; sleep 0.2; done ) &
SAMPLER=$!
RESULT=$("$JAVA" benchmarks/load/EvidenceLoad.java export "http://127.0.0.1:$PORT" alice alice-password ev \
  "$DIR/bundle.zip" "$DIR/keys.json")
kill $SAMPLER 2>/dev/null || true
MAX=$(cat "$DIR/heap-max" 2>/dev/null || echo "$BEFORE")
read -r _ SECONDS_EXPORT BYTES <<< "$RESULT"
echo "| export of $RUNS runs | $SECONDS_EXPORT s ($(awk -v r="$RUNS" -v s="$SECONDS_EXPORT" 'BEGIN{printf "%.0f", r/s}') runs/s), $((BYTES / 1024)) KiB |"
echo "| gateway heap during the export | before ${BEFORE} KiB (after a full GC), peak ${MAX} KiB, growth $(( (MAX - BEFORE) / 1024 )) MiB |"

T0=$(date +%s.%N)
sha256sum "$DIR/bundle.zip" > /dev/null
T1=$(date +%s.%N)
"$JAVA" -jar evidence-verifier/target/airlock-evidence-verifier.jar "$DIR/bundle.zip" --keys "$DIR/keys.json" > "$DIR/verify.txt"
T2=$(date +%s.%N)
tail -1 "$DIR/verify.txt"
awk -v a="$T0" -v b="$T1" -v c="$T2" -v r="$RUNS" 'BEGIN {
  printf "| verification | %.2f s (%.0f runs/s); sha256sum of the same file %.3f s: %.0fx its time |\n", c-b, r/(c-b), b-a, (c-b)/(b-a) }'

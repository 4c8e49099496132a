#!/usr/bin/env bash
# Two gateways measured side by side in one sitting (see docs/benchmarks.md): A and B, each on its
# own embedded PostgreSQL in a temporary data directory, both warmed up, then measured in ROUNDS
# alternating rounds of AGENTS agents x RUNS runs of tool `true` (LoadClient.java's rows, with the
# CPU per run by /proc accounting), the other gateway stopped (SIGSTOP) while one is measured; then
# both gateways' resident memory. Sittings on one machine differ by +-20 %; this compares two jars
# or two JVM sizings under the same conditions.
#
# With STARTS=N it then measures start-up the same way: N alternating starts of each gateway on its
# now existing data directory (the other one not running), each printed with its time to ready
# (the health endpoint answering, polled every 50 ms) and the CPU its JVM had used by then, split
# by thread (main, the C2 and C1 compilers, the garbage collector, everything else).
#
# Usage: benchmarks/load/side-by-side.sh
# Environment (all optional):
#   A_JAR, B_JAR    the gateway jars (default: gateway-api/target/airlock-gateway.jar for both)
#   A_OPTS, B_OPTS  their JVM options (default: -Xms256m -Xmx256m)
#   A_ENV, B_ENV    environment assignments for each, e.g. MALLOC_ARENA_MAX=2
#   AOT             1: run each jar as gateway-load.sh does, extracted and from an AOT cache trained
#                   on it under 16 agents x 40 runs (default 0: the fat jars as given)
#   ROUNDS (2), AGENTS (16), RUNS (300), WARMUP (100 runs per agent), PORT (18101 and the next)
#   STARTS          start-up rounds after the load rounds (default 0; ROUNDS=0 STARTS=5 measures
#                   start-up only)
#   TENANTS         N: both gateways also get N tenants of tenants-yaml.sh, and the agents are spread
#                   over them (agent a on tenant number a modulo N) instead of all on tenant `load`
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
TENANTS=${TENANTS:-0}
CONFIG=file:benchmarks/load/load.yaml
export LOAD_KEYS=load-agent-key
if [ "$TENANTS" -gt 0 ]; then
  TENANTS_YAML=$(mktemp --suffix=.yaml "${TMPDIR:-/tmp}/airlock-side-tenants.XXXXXX")
  benchmarks/load/tenants-yaml.sh "$TENANTS" > "$TENANTS_YAML"
  CONFIG=$CONFIG,file:$TENANTS_YAML
  LOAD_KEYS=$(for i in $(seq 1 "$TENANTS"); do printf 't%03d-key,' "$i"; done)
  LOAD_KEYS=${LOAD_KEYS%,}
fi
AGENTS=${AGENTS:-16}
RUNS=${RUNS:-300}
WARMUP=${WARMUP:-100}
PORT=${PORT:-18101}
AOT=${AOT:-0}
STARTS=${STARTS:-0}
[ -f "$A_JAR" ] && [ -f "$B_JAR" ] || ./mvnw -q -DskipTests package

declare -A PID DIR URL JAR OPTS ENVS READY
cleanup() {
  set +e
  local g
  [ -z "${TENANTS_YAML:-}" ] || rm -f "$TENANTS_YAML"
  for g in "${!PID[@]}"; do kill -CONT "${PID[$g]}" 2>/dev/null; kill "${PID[$g]}" 2>/dev/null; done
  for g in "${!PID[@]}"; do wait "${PID[$g]}" 2>/dev/null; done
  for g in "${!DIR[@]}"; do
    [ -f "${DIR[$g]}/postgres/postmaster.pid" ] && kill "$(head -1 "${DIR[$g]}/postgres/postmaster.pid")" 2>/dev/null && sleep 2
    rm -rf "${DIR[$g]}"
  done
}
trap cleanup EXIT

# start NAME PORT [JVM_OPTION...]: starts gateway NAME (JAR, OPTS and ENVS of NAME) on its data
# directory (a new one the first time), waits until it is healthy (at most 2 minutes) and sets
# READY[NAME] to the seconds that took.
start() {
  local name=$1 port=$2
  shift 2
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    echo "port $port is in use: set PORT (this script uses PORT and PORT+1)" >&2
    exit 1
  fi
  [ -n "${DIR[$name]:-}" ] || DIR[$name]=$(mktemp -d "${TMPDIR:-/tmp}/airlock-side-$name.XXXXXX")
  local started
  started=$(date +%s.%N)
  # shellcheck disable=SC2086
  env ${ENVS[$name]} "$JAVA" ${OPTS[$name]} "$@" -jar "${JAR[$name]}" --server.port="$port" \
    --airlock.data-dir="${DIR[$name]}" --spring.config.additional-location="$CONFIG" \
    --logging.level.dev.airlock=WARN >> "${DIR[$name]}/gateway.log" 2>&1 &
  PID[$name]=$!
  URL[$name]=http://127.0.0.1:$port
  for _ in $(seq 1 2400); do
    if curl -sf "${URL[$name]}/actuator/health" >/dev/null; then
      READY[$name]=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
      return 0
    fi
    kill -0 "${PID[$name]}" 2>/dev/null || break
    sleep 0.05
  done
  echo "gateway $name did not start; the end of its log:" >&2
  tail -40 "${DIR[$name]}/gateway.log" >&2
  exit 1
}

# stop NAME: stops gateway NAME and waits until it is gone (its embedded PostgreSQL with it).
stop() {
  kill "${PID[$1]}"
  wait "${PID[$1]}" 2>/dev/null || true
  unset "PID[$1]"
}

# cpu_split PID: the CPU seconds the JVM has used, in all and by thread (from /proc/PID/task).
cpu_split() {
  local tick
  tick=$(getconf CLK_TCK)
  for t in /proc/"$1"/task/*; do
    # comm is field 2 and may hold spaces: take utime and stime counting from the end of the line
    printf '%s\t%s\n' "$(cat "$t/comm")" "$(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}')"
  done | awk -F '\t' -v tick="$tick" '
    { all += $2 }
    $1 == "java" { main += $2; next }
    $1 ~ /^C2 / { c2 += $2; next }
    $1 ~ /^C1 / { c1 += $2; next }
    $1 ~ /^GC |^G1 / { gc += $2; next }
    { other += $2 }
    END { printf "cpu %.2f s: main %.2f, C2 %.2f, C1 %.2f, GC %.2f, other %.2f", all / tick, main / tick, c2 / tick, c1 / tick, gc / tick, other / tick }'
}

JAR[A]=$A_JAR; OPTS[A]=$A_OPTS; ENVS[A]=${A_ENV:-}
JAR[B]=$B_JAR; OPTS[B]=$B_OPTS; ENVS[B]=${B_ENV:-}
echo "A: $A_JAR $A_OPTS ${A_ENV:-}"
echo "B: $B_JAR $B_OPTS ${B_ENV:-}"
if [ "$AOT" = 1 ]; then
  for g in A B; do
    # As gateway-load.sh: the jar extracted, a training run under load writes the cache at its exit.
    DIR[aot-$g]=$(mktemp -d "${TMPDIR:-/tmp}/airlock-side-aot-$g.XXXXXX")
    "$JAVA" -Djarmode=tools -jar "${JAR[$g]}" extract --destination "${DIR[aot-$g]}/app" >/dev/null
    JAR[$g]=${DIR[aot-$g]}/app/$(basename "${JAR[$g]}")
    echo "training $g's AOT cache (${DIR[aot-$g]}/app.aot)" >&2
    start "$g" "$PORT" -XX:AOTCacheOutput="${DIR[aot-$g]}/app.aot"
    "$JAVA" benchmarks/load/LoadClient.java throughput "${URL[$g]}" 16 40 load-agent-key >/dev/null
    stop "$g"
    [ -f "${DIR[aot-$g]}/app.aot" ] || { echo "the training run wrote no AOT cache" >&2; exit 1; }
    OPTS[$g]="${OPTS[$g]} -XX:AOTCache=${DIR[aot-$g]}/app.aot"
    # The measured gateway starts on a fresh data directory, as without AOT.
    rm -rf "${DIR[$g]}"
    unset "DIR[$g]"
  done
fi
start A "$PORT"
start B "$((PORT + 1))"
echo "started on fresh data directories: A in ${READY[A]} s, B in ${READY[B]} s"
for g in A B; do
  [ "$ROUNDS" -gt 0 ] || break
  echo "warming up $g ($AGENTS agents x $WARMUP runs)" >&2
  "$JAVA" benchmarks/load/LoadClient.java throughput "${URL[$g]}" "$AGENTS" "$WARMUP" "$LOAD_KEYS" >/dev/null
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
  [ "$ROUNDS" -gt 0 ] || break
  echo "$g resident memory: $(( $(awk '/^VmRSS:/ {print $2}' "/proc/${PID[$g]}/status") / 1024 )) MiB"
done
[ "$STARTS" -gt 0 ] || exit 0
stop A
stop B
for r in $(seq 1 "$STARTS"); do
  for g in A B; do
    start "$g" "$PORT"
    echo "$g start $r: ready in ${READY[$g]} s on an existing data directory, $(cpu_split "${PID[$g]}")"
    stop "$g"
  done
done

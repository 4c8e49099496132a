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
# With more than one agent the same rows follow for one agent (SKIP_ONE=1 skips them).
# Environment: SKIP_BIG=1 skips the 1 GiB run; GATEWAY_OPTS adds JVM options to the gateway
# (for example -XX:StartFlightRecording=filename=/tmp/gateway.jfr,settings=profile).
#
# SCALE=1 adds the "flat with scale" rows after the usual ones (SCALE=only runs just those,
# SCALE=wait just the parked and waiting part; see
# docs/benchmarks.md#flat-with-scale): the gateway row against three gateways side by side, one
# with load.yaml alone (the baseline), one with SCALE_TENANTS tenants configured (default 100) and
# one with the same tenants and SCALE_RUNS finished runs seeded into its database (default
# 1,000,000, 90 % in the load tenant); measured in SCALE_ROUNDS rounds (default 3), alternating,
# with the other gateways stopped (SIGSTOP) while one is measured. Then a fresh gateway with
# SCALE_PARKED runs parked for approval (default 1000) and SCALE_WAITERS requests (default 200)
# waiting on them with ?wait=PT60S: heap after a full GC, native memory (NMT), threads and CPU,
# before and while they wait.
set -euo pipefail
export LC_NUMERIC=C   # decimal points in awk and printf; leaves the text encoding (the clients print ×) alone
cd "$(dirname "$0")/../.."
AGENTS=${1:-16}
RUNS=${2:-100}
PORT=${PORT:-18080}
SCALE=${SCALE:-}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JSTAT=${JAVA_HOME:+$JAVA_HOME/bin/}jstat
JCMD=${JAVA_HOME:+$JAVA_HOME/bin/}jcmd
# How the gateway's JVM is sized (docs/benchmarks.md): a fixed small heap, as a deployment would set it.
GATEWAY_HEAP=${GATEWAY_HEAP:--Xms256m -Xmx256m}
# AOT=1 (the default) runs the gateway as a deployment should: the jar extracted (java -Djarmode=tools
# ... extract) and started with an AOT cache (JDK 25: classes loaded and linked, method profiles)
# written by a training run of the same load; AOT=0 runs the fat jar as the README's command does.
AOT=${AOT:-1}
GATEWAY_JAR=gateway-api/target/airlock-gateway.jar
AOT_OPTS=

[ -f gateway-api/target/airlock-gateway.jar ] && [ -f benchmarks/target/benchmarks.jar ] || ./mvnw -q -DskipTests package

PIDS=()    # gateways started here
DIRS=()    # their data directories (and other temporary files)
CLIENT=    # a load client running in the background
cleanup() {
  set +e   # clean up everything, whatever has already gone
  [ -n "$CLIENT" ] && kill "$CLIENT" 2>/dev/null
  local pid dir
  for pid in "${PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null; kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null && echo "gateway $pid did not stop in 60 s; killed" >&2
    wait "$pid" 2>/dev/null
  done
  for dir in "${DIRS[@]}"; do
    # A gateway killed without its shutdown leaves its embedded PostgreSQL running: stop that one.
    [ -f "$dir/postgres/postmaster.pid" ] && kill "$(head -1 "$dir/postgres/postmaster.pid")" 2>/dev/null && sleep 2
    rm -rf "$dir"
  done
}
trap cleanup EXIT

# start_gateway NAME PORT CONFIG_LOCATIONS [JVM_OPTION...]: starts a gateway, waits until it is healthy
# (at most 2 minutes); sets GW_PID and GW_DIR.
start_gateway() {
  local name=$1 port=$2 config=$3
  shift 3
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    echo "port $port is in use: stop what listens there, or set PORT (this script uses PORT to PORT+4)" >&2
    exit 1
  fi
  if [ -n "${GW_REUSE:-}" ]; then
    GW_DIR=$GW_REUSE
  else
    GW_DIR=$(mktemp -d "${TMPDIR:-/tmp}/airlock-load-$name.XXXXXX")
    DIRS+=("$GW_DIR")
  fi
  local started
  started=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$JAVA" $GATEWAY_HEAP $AOT_OPTS "$@" ${GATEWAY_OPTS:-} -jar "$GATEWAY_JAR" --server.port="$port" \
    --airlock.data-dir="$GW_DIR" --spring.config.additional-location="$config" --logging.level.dev.airlock=WARN \
    >> "$GW_DIR/gateway.log" 2>&1 &
  GW_PID=$!
  PIDS+=("$GW_PID")
  for _ in $(seq 1 1200); do
    if curl -sf "http://127.0.0.1:$port/actuator/health" >/dev/null; then
      GW_READY=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
      return 0
    fi
    kill -0 "$GW_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "gateway $name did not start; the end of its log:" >&2
  tail -40 "$GW_DIR/gateway.log" >&2
  exit 1
}

if [ "$AOT" = 1 ]; then
  # The training run: the extracted jar under the same load as measured below, its cache written at exit.
  AOT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/airlock-aot.XXXXXX")
  DIRS+=("$AOT_DIR")
  "$JAVA" -Djarmode=tools -jar gateway-api/target/airlock-gateway.jar extract --destination "$AOT_DIR/app" >/dev/null
  GATEWAY_JAR=$AOT_DIR/app/airlock-gateway.jar
  echo "Training the AOT cache ($AOT_DIR/app.aot): a gateway under load, then its exit" >&2
  start_gateway aot-training "$PORT" file:benchmarks/load/load.yaml -XX:AOTCacheOutput="$AOT_DIR/app.aot"
  "$JAVA" benchmarks/load/LoadClient.java throughput "http://127.0.0.1:$PORT" "$AGENTS" 40 load-agent-key >/dev/null
  kill "$GW_PID"
  wait "$GW_PID" 2>/dev/null || true
  [ -f "$AOT_DIR/app.aot" ] || { echo "the training run wrote no AOT cache" >&2; exit 1; }
  AOT_OPTS="-XX:AOTCache=$AOT_DIR/app.aot"
fi

if [ "$SCALE" != only ] && [ "$SCALE" != wait ]; then
  start_gateway load "$PORT" file:benchmarks/load/load.yaml
  GATEWAY=$GW_PID
  DATA=$GW_DIR
  FRESH_READY=$GW_READY
  echo "Gateway up (pid $GATEWAY, $GATEWAY_HEAP) in $FRESH_READY s on a fresh data directory; $AGENTS agents x $RUNS runs"
  if [ -z "${SKIP_WARMUP:-}" ]; then
    "$JAVA" benchmarks/load/LoadClient.java warmup "http://127.0.0.1:$PORT" "$AGENTS" 1000 100
  fi
  export GATEWAY_PID=$GATEWAY POSTGRES_PID
  POSTGRES_PID=$(head -1 "$DATA/postgres/postmaster.pid")
  "$JAVA" benchmarks/load/LoadClient.java "http://127.0.0.1:$PORT" "$AGENTS" "$RUNS"
  if [ "$AGENTS" != 1 ] && [ -z "${SKIP_ONE:-}" ]; then
    echo "The same rows with one agent ($RUNS runs), on the same gateway"
    "$JAVA" benchmarks/load/LoadClient.java "http://127.0.0.1:$PORT" 1 "$RUNS"
  fi
  RSS_KB=$(awk '/^VmRSS:/ {print $2}' "/proc/$GATEWAY/status")
  echo "| resident memory of the gateway after the runs above (over 1,000) | $((RSS_KB / 1024)) MiB | ≤ 350 MiB | $([ "$RSS_KB" -le $((350 * 1024)) ] && echo yes || echo no) |"

  if [ -z "${SKIP_BIG:-}" ]; then
    heap_kb() { "$JSTAT" -gc "$GATEWAY" | awk 'NR==2 {print int($3+$4+$6+$8)}'; }
    BEFORE=$(heap_kb)
    ( MAX=0; while kill -0 "$GATEWAY" 2>/dev/null; do H=$(heap_kb); [ "$H" -gt "$MAX" ] && MAX=$H && echo "$MAX" > "$DATA/heap-max"; sleep 0.2; done ) &
    SAMPLER=$!
    "$JAVA" benchmarks/load/BigOutput.java "http://127.0.0.1:$PORT"
    kill $SAMPLER 2>/dev/null || true
    MAX=$(cat "$DATA/heap-max" 2>/dev/null || echo "$BEFORE")
    echo "| heap during the 1 GiB run | before ${BEFORE} KiB | peak ${MAX} KiB | growth $(( (MAX - BEFORE) / 1024 )) MiB |"
  fi
  kill "$GATEWAY"
  wait "$GATEWAY" 2>/dev/null || true
  GW_REUSE=$DATA start_gateway load "$PORT" file:benchmarks/load/load.yaml
  echo "| start-up to ready, fresh data directory | $FRESH_READY s | ≤ 10 s | $(awk -v s="$FRESH_READY" 'BEGIN {print (s <= 10 ? "yes" : "no")}') |"
  echo "| start-up to ready, existing data directory | $GW_READY s | ≤ 5 s | $(awk -v s="$GW_READY" 'BEGIN {print (s <= 5 ? "yes" : "no")}') |"
  kill "$GW_PID"
  wait "$GW_PID" 2>/dev/null || true
fi
[ -z "$SCALE" ] && exit 0

# ---------------------------------------------------------------------------------------------
# Flat with scale.
SCALE_TENANTS=${SCALE_TENANTS:-100}
SCALE_RUNS=${SCALE_RUNS:-1000000}
SCALE_ROUNDS=${SCALE_ROUNDS:-3}
SCALE_PARKED=${SCALE_PARKED:-1000}
SCALE_WAITERS=${SCALE_WAITERS:-200}
SCALE_WAIT=${SCALE_WAIT:-PT60S}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/airlock-scale.XXXXXX")
DIRS+=("$WORK")
log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }

# SCALE_TENANTS - 1 more tenants beside load.yaml's (tenants-yaml.sh): tNNN, agent tNNN-agent with key
# "tNNN-key", three tools each (one gated by approval, one with a parameter).
TENANTS_YAML=$WORK/tenants.yaml
benchmarks/load/tenants-yaml.sh $((SCALE_TENANTS - 1)) > "$TENANTS_YAML"
MANY=file:benchmarks/load/load.yaml,file:$TENANTS_YAML
SPREAD=$(for i in $(seq 1 $(( AGENTS < SCALE_TENANTS - 1 ? AGENTS : SCALE_TENANTS - 1 ))); do printf 't%03d-key,' "$i"; done)
SPREAD=${SPREAD%,}

# cpu_ticks PID...: CPU time used so far (1/100 s) by each gateway given, the sandboxes it has
# waited for, and its embedded PostgreSQL (the postmaster, its live processes and those it has reaped).
declare -A GW_DIR_OF
cpu_ticks() {
  local total=0 pid pm
  for pid in "$@"; do
    total=$((total + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat")))
    pm=$(head -1 "${GW_DIR_OF[$pid]}/postgres/postmaster.pid")
    total=$((total + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat")))
    for child in $(ps --ppid "$pm" -o pid=); do
      total=$((total + $(awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || echo 0)))
    done
  done
  echo "$total"
}
# only PID: lets gateway PID run and stops (SIGSTOP) every other scale gateway.
only() {
  local pid
  for pid in "${SCALE_PIDS[@]}"; do
    if [ "$pid" = "$1" ]; then kill -CONT "$pid"; else kill -STOP "$pid"; fi
  done
}
SCALE_PIDS=()
add_scale_gateway() { SCALE_PIDS+=("$GW_PID"); GW_DIR_OF[$GW_PID]=$GW_DIR; }

if [ "$SCALE" != wait ]; then
log "Scale: starting the gateway with $SCALE_TENANTS tenants that gets $SCALE_RUNS runs"
start_gateway runs $((PORT + 3)) "$MANY"
RUNS_GW=$GW_PID RUNS_PORT=$((PORT + 3))
add_scale_gateway
log "Seeding $SCALE_RUNS runs into its database (as the owner, over JDBC)"
SEED_START=$(date +%s)
"$JAVA" -cp benchmarks/target/benchmarks.jar dev.airlock.benchmarks.RunSeeder "$GW_DIR" "$SCALE_RUNS" load 0.9
SEED_SECONDS=$(( $(date +%s) - SEED_START ))
log "Seeded in $SEED_SECONDS s"

log "Starting the baseline gateway (load.yaml) and the one with $SCALE_TENANTS tenants"
start_gateway base $((PORT + 1)) file:benchmarks/load/load.yaml
BASE_GW=$GW_PID BASE_PORT=$((PORT + 1))
add_scale_gateway
start_gateway tenants $((PORT + 2)) "$MANY"
TENANTS_GW=$GW_PID TENANTS_PORT=$((PORT + 2))
add_scale_gateway

# The rows: name, gateway, port, keys.
ROW_NAMES=("baseline: load.yaml (1 tenant), empty database" "$SCALE_TENANTS tenants configured, load on tenant load"
  "$SCALE_TENANTS tenants configured, agents spread over $(( $(tr -cd , <<<"$SPREAD" | wc -c) + 1 )) of them"
  "$SCALE_TENANTS tenants + $SCALE_RUNS runs in the database, load on tenant load")
ROW_GW=("$BASE_GW" "$TENANTS_GW" "$TENANTS_GW" "$RUNS_GW")
ROW_PORT=("$BASE_PORT" "$TENANTS_PORT" "$TENANTS_PORT" "$RUNS_PORT")
ROW_KEYS=(load-agent-key load-agent-key "$SPREAD" load-agent-key)
CALLS=$(( AGENTS * (RUNS / 4 + 1) + AGENTS * RUNS ))   # warm-up and measured runs per client
declare -A RESULT   # "row,round" -> "runs/s p50 p99 cpu-ms-per-run"

measure_row() {  # ROW ROUND
  local r=$1 gw=${ROW_GW[$1]} before after line
  only "$gw"
  sleep 2
  before=$(cpu_ticks "$gw")
  line=$("$JAVA" benchmarks/load/LoadClient.java throughput "http://127.0.0.1:${ROW_PORT[$r]}" "$AGENTS" "$RUNS" "${ROW_KEYS[$r]}" \
    2>/dev/null | awk '/^RESULT/ {print $2, $3, $4}')
  after=$(cpu_ticks "$gw")
  [ -n "$line" ] || { echo "the load client failed against ${ROW_NAMES[$r]}" >&2; exit 1; }
  RESULT[$r,$2]="$line $(awk -v t=$((after - before)) -v n="$CALLS" 'BEGIN {printf "%.2f", t * 10 / n}')"
  log "  round $2: ${ROW_NAMES[$r]}: runs/s p50 p99 cpu-ms/run = ${RESULT[$r,$2]}"
}

log "Warming up each gateway (one pass, not counted) and measuring its idle CPU for 10 s"
declare -A IDLE
for gw in "$BASE_GW" "$TENANTS_GW" "$RUNS_GW"; do
  for r in 0 1 2 3; do [ "${ROW_GW[$r]}" = "$gw" ] && measure_row "$r" warm-up; done
  sleep 5
  before=$(cpu_ticks "$gw"); sleep 10; after=$(cpu_ticks "$gw")
  IDLE[$gw]=$(awk -v t=$((after - before)) 'BEGIN {printf "%.1f", t / 10}')   # 1000 ticks in 10 s = one core
done
for round in $(seq 1 "$SCALE_ROUNDS"); do
  for r in 0 1 2 3; do measure_row "$r" "$round"; done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() {  # ROW COLUMN: the column's values over the rounds, one a line
  local round
  for round in $(seq 1 "$SCALE_ROUNDS"); do awk -v c="$2" '{print $c}' <<<"${RESULT[$1,$round]}"; done
}
BASE_RATE=$(col 0 1 | median)
echo
echo "Seeded $SCALE_RUNS runs in $SEED_SECONDS s. $AGENTS agents x $RUNS runs of tool \`true\` (?wait) per measurement;"
echo "medians of $SCALE_ROUNDS rounds, rows alternating; CPU = the gateway, its sandboxes and its PostgreSQL."
echo
echo "| $AGENTS concurrent agents, $RUNS runs each | runs/s | / baseline | per round / that round's baseline | p50 ms | p99 ms | CPU ms per run | idle CPU, % of a core |"
echo "|---|---:|---:|---|---:|---:|---:|---:|"
for r in 0 1 2 3; do
  rate=$(col "$r" 1 | median)
  per_round=$(for round in $(seq 1 "$SCALE_ROUNDS"); do
      awk -v a="$(col "$r" 1 | sed -n "${round}p")" -v b="$(col 0 1 | sed -n "${round}p")" 'BEGIN {printf "%.2f ", a / b}'
    done)
  printf '| %s | %.0f | %.2f× | %s| %.1f | %.1f | %.1f | %s |\n' "${ROW_NAMES[$r]}" "$rate" \
    "$(awk -v a="$rate" -v b="$BASE_RATE" 'BEGIN {print a / b}')" "$per_round" "$(col "$r" 2 | median)" \
    "$(col "$r" 3 | median)" "$(col "$r" 4 | median)" "${IDLE[${ROW_GW[$r]}]}"
done

log "Stopping the throughput gateways"
for pid in "${SCALE_PIDS[@]}"; do kill -CONT "$pid"; kill "$pid"; done
for pid in "${SCALE_PIDS[@]}"; do
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
done
SCALE_PIDS=()
fi

# ---------------------------------------------------------------------------------------------
# Parked runs and waiting requests: memory and CPU (SCALE=wait runs only this part).
log "Starting a gateway with native memory tracking for the waiting test"
start_gateway wait $((PORT + 4)) file:benchmarks/load/load.yaml -XX:NativeMemoryTracking=summary
WAIT_GW=$GW_PID WAIT_URL=http://127.0.0.1:$((PORT + 4))
GW_DIR_OF[$WAIT_GW]=$GW_DIR
# sample NAME: the gateway after a full GC: live heap (the class histogram's total, which collects
# first; kept as $WORK/heap-NAME.txt), native memory committed outside the heap (NMT), RSS (KiB), platform threads.
sample() {
  local heap nmt rss threads
  "$JCMD" "$WAIT_GW" GC.class_histogram > "$WORK/heap-$1.txt"
  heap=$(awk '$1 == "Total" {printf "%d", $3 / 1024}' "$WORK/heap-$1.txt")
  nmt=$("$JCMD" "$WAIT_GW" VM.native_memory summary | awk '
    /^Total/ && match($0, /committed=[0-9]+KB/) {total = substr($0, RSTART + 10, RLENGTH - 12)}
    /Java Heap/ && match($0, /committed=[0-9]+KB/) {heap = substr($0, RSTART + 10, RLENGTH - 12)}
    END {print total - heap}')
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$WAIT_GW/status")
  threads=$(awk '/^Threads/ {print $2}' "/proc/$WAIT_GW/status")
  echo "$heap $nmt $rss $threads"
}
cpu_percent() {  # after 10 s to settle: CPU of the gateway (with its sandboxes) and of its PostgreSQL over 20 s, % of a core
  local g0 g1 all0 all1
  sleep 10
  all0=$(cpu_ticks "$WAIT_GW"); g0=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$WAIT_GW/stat")
  sleep 20
  all1=$(cpu_ticks "$WAIT_GW"); g1=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$WAIT_GW/stat")
  awk -v g=$((g1 - g0)) -v p=$((all1 - all0 - (g1 - g0))) 'BEGIN {printf "%.1f %.1f\n", g / 20, p / 20}'  # 2000 ticks in 20 s = one core
}
# Few connections in the warm-up: Tomcat keeps the processors (and their buffers) of ended requests,
# up to server.tomcat.processor-cache (200), and those would hide part of a waiting request's cost.
log "Warming the paths up: 10 parked runs, 10 requests waiting 10 s on them, 5 times"
"$JAVA" benchmarks/load/LoadClient.java park "$WAIT_URL" load-agent-key gated 10 "$WORK/warm.txt" 2>/dev/null
for _ in 1 2 3 4 5; do "$JAVA" benchmarks/load/LoadClient.java wait "$WAIT_URL" load-agent-key "$WORK/warm.txt" 10 PT10S >/dev/null; done
S0=$(sample start); C0=$(cpu_percent)
log "Parking $SCALE_PARKED runs of tool gated (approval required; nobody approves)"
"$JAVA" benchmarks/load/LoadClient.java park "$WAIT_URL" load-agent-key gated "$SCALE_PARKED" "$WORK/parked.txt" 2>/dev/null
S1=$(sample parked); C1=$(cpu_percent)
log "$SCALE_WAITERS requests wait on $SCALE_WAITERS of them with ?wait=$SCALE_WAIT"
"$JAVA" benchmarks/load/LoadClient.java wait "$WAIT_URL" load-agent-key "$WORK/parked.txt" "$SCALE_WAITERS" "$SCALE_WAIT" \
  > "$WORK/wait.out" 2>&1 &
CLIENT=$!
WAITING=0
for _ in $(seq 1 60); do
  "$JCMD" "$WAIT_GW" Thread.dump_to_file -overwrite -format=text "$WORK/threads.txt" >/dev/null 2>&1 || true
  WAITING=$(grep -c 'RunService.await' "$WORK/threads.txt" 2>/dev/null || true)
  [ "${WAITING:-0}" -ge "$SCALE_WAITERS" ] && break
  sleep 0.5
done
VIRTUAL=$(grep -B12 'RunService.await' "$WORK/threads.txt" | grep -c 'parkVirtualThread' || true)
log "  $WAITING requests in RunService.await ($VIRTUAL of them parked virtual threads)"
S2=$(sample waiting); C2=$(cpu_percent)
for _ in $(seq 1 150); do kill -0 "$CLIENT" 2>/dev/null || break; sleep 1; done
wait "$CLIENT" || true
CLIENT=
WAITED=$(grep '^WAITED' "$WORK/wait.out" || echo "WAITED: the client did not finish: $(tail -3 "$WORK/wait.out")")
sleep 5
S3=$(sample after)

read -r H0 N0 R0 T0 <<<"$S0"
read -r H1 N1 R1 T1 <<<"$S1"
read -r H2 N2 R2 T2 <<<"$S2"
read -r H3 N3 R3 T3 <<<"$S3"
read -r CG0 CP0 <<<"$C0"
read -r CG1 CP1 <<<"$C1"
read -r CG2 CP2 <<<"$C2"
per() { awk -v d="$1" -v n="$2" 'BEGIN {printf "%.0f", d * 1024 / n}'; }
echo
echo "$WAITED"
echo "While they waited: $WAITING requests in RunService.await in a thread dump, $VIRTUAL of them on parked virtual threads;"
echo "platform threads $T1 before, $T2 while waiting."
echo
echo "| gateway (after a full GC) | live heap KiB | native committed KiB (NMT, without the heap) | RSS KiB | platform threads | CPU % of a core: gateway / PostgreSQL |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| started, paths warmed up | $H0 | $N0 | $R0 | $T0 | $CG0 / $CP0 |"
echo "| + $SCALE_PARKED runs parked for approval | $H1 | $N1 | $R1 | $T1 | $CG1 / $CP1 |"
echo "| + $SCALE_WAITERS requests waiting (?wait=$SCALE_WAIT) | $H2 | $N2 | $R2 | $T2 | $CG2 / $CP2 |"
echo "| after they have all returned | $H3 | $N3 | $R3 | $T3 | |"
echo "| **per parked run**, bytes | $(per $((H1 - H0)) "$SCALE_PARKED") | $(per $((N1 - N0)) "$SCALE_PARKED") | $(per $((R1 - R0)) "$SCALE_PARKED") | | |"
echo "| **per waiting request**, bytes | $(per $((H2 - H1)) "$SCALE_WAITERS") | $(per $((N2 - N1)) "$SCALE_WAITERS") | $(per $((R2 - R1)) "$SCALE_WAITERS") | $((T2 - T1)) in all | |"
echo "| **kept per request after it returned**, bytes | $(per $((H3 - H1)) "$SCALE_WAITERS") | $(per $((N3 - N1)) "$SCALE_WAITERS") | $(per $((R3 - R1)) "$SCALE_WAITERS") | | |"
echo
echo "What the heap gained per waiting request, by class (the five largest):"
awk -v n="$SCALE_WAITERS" 'FNR == NR && $1 ~ /:$/ {before[$4] = $3; next}
  $1 ~ /:$/ {d = $3 - before[$4]; if (d > 0) printf "%d %s\n", d / n, $4}' "$WORK/heap-parked.txt" "$WORK/heap-waiting.txt" \
  | sort -rn | head -5 | awk '{printf "- %s: %d bytes\n", $2, $1}'

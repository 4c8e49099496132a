#!/usr/bin/env bash
# The gateway JVM's CPU per run by thread, for one or more jars, alternating, in one sitting
# (docs/benchmarks.md, "Pooled supervisor threads"). Each jar is started on a fresh data directory
# with benchmarks/load/load.yaml, warmed up with 16 agents x 100 runs of tool `true`, then measured
# over 16 x 100 more: the CPU of each live thread, grouped by name (numbers dropped), before and
# after, per run, and the whole process's (TOTAL). Threads that ended during the window are only
# in TOTAL: the difference between TOTAL and the sum of every live thread's row is printed as
# "(threads that ended)". Thread names are as the kernel keeps them, cut to 15 characters.
#
# Usage: benchmarks/load/jvm-threads.sh JAR [JAR...]      (ROUNDS, default 2; PORT, default 18120)
set -uo pipefail
cd "$(dirname "$0")/../.."
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
PORT=${PORT:-18120}
ROUNDS=${ROUNDS:-2}
# LoadClient's throughput mode makes its own warm-up of 100/4+1 runs per agent inside the window.
RUNS=$((16 * (100 / 4 + 1) + 16 * 100))
TICK=$(getconf CLK_TCK)
[ $# -gt 0 ] || { echo "usage: $0 JAR [JAR...]" >&2; exit 2; }

# snap PID: one line per thread name (numbers dropped) with its CPU ticks, and TOTAL for the process.
snap() {
  for t in /proc/"$1"/task/*; do
    # comm is field 2 and may hold spaces: take utime and stime counting from the end of the line
    printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" "$(sed 's/.*) //' "$t/stat" 2>/dev/null | awk '{print $12 + $13}')"
  done | awk -F '\t' '{ n = $1; sub(/-?[0-9]+$/, "", n); sub(/#[0-9]+$/, "", n); g[n] += $2 } END { for (k in g) print k "\t" g[k] }'
  printf 'TOTAL (process)\t%s\n' "$(sed 's/.*) //' /proc/"$1"/stat | awk '{print $12 + $13}')"
}

for round in $(seq 1 "$ROUNDS"); do
  for jar in "$@"; do
    dir=$(mktemp -d "${TMPDIR:-/tmp}/airlock-threads.XXXXXX")
    "$JAVA" -Xms256m -Xmx256m -jar "$jar" --server.port="$PORT" --airlock.data-dir="$dir" \
      --spring.config.additional-location=file:benchmarks/load/load.yaml --logging.level.dev.airlock=WARN > "$dir/log" 2>&1 &
    pid=$!
    for _ in $(seq 1 2400); do curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null && break; sleep 0.05; done
    "$JAVA" benchmarks/load/LoadClient.java throughput "http://127.0.0.1:$PORT" 16 100 load-agent-key > /dev/null 2>&1
    snap "$pid" > "$dir/before"
    result=$("$JAVA" benchmarks/load/LoadClient.java throughput "http://127.0.0.1:$PORT" 16 100 load-agent-key 2>/dev/null)
    snap "$pid" > "$dir/after"
    echo "== round $round $(basename "$jar"): $result"
    join -t $'\t' -a 2 -e 0 -o 0,1.2,2.2 <(sort "$dir/before") <(sort "$dir/after") |
      awk -F '\t' -v runs="$RUNS" -v tick="$TICK" '
        { d = ($3 - $2) / tick * 1000 / runs }
        $1 == "TOTAL (process)" { total = d; next }
        { live += d; if (d >= 0.05 || d <= -0.05) printf "  %-22s %6.2f ms/run\n", $1, d }
        END { printf "  %-22s %6.2f ms/run\n  %-22s %6.2f ms/run\n", "TOTAL (process)", total, "(threads that ended)", total - live }'
    kill "$pid"; wait "$pid" 2>/dev/null
    [ -f "$dir/postgres/postmaster.pid" ] && kill "$(head -1 "$dir/postgres/postmaster.pid")" 2>/dev/null && sleep 2
    rm -rf "$dir"
  done
done

#!/bin/sh
# Entry point for hosts that give the container a cgroup v2 subtree of its own (a private cgroup
# namespace and /sys/fs/cgroup mounted writable): each run then gets a cgroup that bounds its memory
# as a whole (docs/sandbox.md, "Memory: a cgroup per run"). Elsewhere use the image's default entry
# point, and each process of a run is bounded by RLIMIT_AS instead.
set -eu
root=/sys/fs/cgroup
if [ ! -f "$root/cgroup.controllers" ]; then
  echo "cgroup-entrypoint: $root is not a cgroup v2 hierarchy; start without it" >&2
  exit 1
fi
mkdir -p "$root/gateway" "$root/runs"
# A cgroup that hands controllers to its children may hold no process: the gateway moves to a leaf.
echo $$ > "$root/gateway/cgroup.procs"
echo "+memory +pids" > "$root/cgroup.subtree_control"
# tini (as PID 1, or as a subreaper with -s) reaps the sandboxes' inits that are orphaned to it.
exec /usr/bin/tini -s -- java -jar /opt/airlock/airlock-gateway.jar --airlock.sandbox.cgroup="$root/runs" "$@"

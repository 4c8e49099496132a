package dev.airlock.persistence.run;

/** Why a process stopped, as the supervisor observed it. */
public enum Termination {
    /** The process exited by itself; its exit code was observed. */
    EXITED,
    /** The run exceeded its time limit and its process tree was killed. */
    TIMEOUT,
    /** A stream exceeded its observed-bytes limit and the process tree was killed. */
    OUTPUT_LIMIT,
    /** The kernel killed the run's processes because the run reached its memory limit (known only with a cgroup per run). */
    MEMORY_LIMIT,
    /** Someone cancelled the run and its process tree was killed. */
    CANCELLED,
    /** The process could not be started. */
    SPAWN_FAILED,
    /** The replica supervising the process stopped renewing its lease; what the process did is unknown. */
    LOST
}

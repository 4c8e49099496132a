package dev.airlock.sanitizer;

import java.util.Optional;

/**
 * Which scan the ground-state fast path of {@link TerminalSanitizer} uses. All give the same
 * output; tests pin each one and {@link #NONE} (the state machine alone) to compare them.
 */
enum FastPath {

    /** No fast path: every byte through the state machine. For tests. */
    NONE,
    /** Eight bytes at a time in a {@code long}. */
    SCALAR,
    /** {@link VectorScan}, one vector register at a time. */
    VECTOR;

    /**
     * Whether the Vector API can be used: the JVM was started with
     * {@code --add-modules jdk.incubator.vector}, this module reads it, its registers hold at least
     * 16 bytes, and {@code -Dairlock.sanitizer.vector=false} was not given (use that on a JVM
     * without the C2 compiler, such as {@code -XX:TieredStopAtLevel=1}, where vector code runs
     * slowly and allocates).
     */
    static final boolean VECTOR_AVAILABLE = vectorAvailable();

    /** The best available: {@link #VECTOR} where it can be used, else {@link #SCALAR}. */
    static FastPath best() {
        return VECTOR_AVAILABLE ? VECTOR : SCALAR;
    }

    private static boolean vectorAvailable() {
        if (!Boolean.parseBoolean(System.getProperty("airlock.sanitizer.vector", "true"))) {
            return false;
        }
        Optional<Module> vector = ModuleLayer.boot().findModule("jdk.incubator.vector");
        if (vector.isEmpty() || !FastPath.class.getModule().canRead(vector.get())) {
            return false;
        }
        try {
            return VectorScan.LANES >= 16;
        } catch (LinkageError e) {
            return false;
        }
    }
}

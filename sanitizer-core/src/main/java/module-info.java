/**
 * Airlock's sanitizer core: turns untrusted terminal output into inert text.
 *
 * <p>Only {@code dev.airlock.sanitizer} is exported; the command-line tool lives in a
 * package of its own that no other module can reach.
 *
 * <p>The Vector API is optional: the sanitizer uses it only when the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, and scans with plain Java otherwise.
 */
module dev.airlock.sanitizer {
    requires static jdk.incubator.vector;

    exports dev.airlock.sanitizer;
}

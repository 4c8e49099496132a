/**
 * Airlock's sanitizer core: turns untrusted terminal output into inert text.
 *
 * <p>Only {@code dev.airlock.sanitizer} is exported; the command-line tool lives in a
 * package of its own that no other module can reach.
 */
module dev.airlock.sanitizer {
    exports dev.airlock.sanitizer;
}

/**
 * SHA-256 digests as lower-case hex, the one form in which Airlock stores, shows and compares
 * digests (actions, artifacts, the audit chain).
 */
@NullMarked
package dev.airlock.kernel.digest;

import org.jspecify.annotations.NullMarked;

/** Logging context for a run (its id and tenant in every line logged while it is handled). */
@NullMarked
package dev.airlock.kernel.log;

import org.jspecify.annotations.NullMarked;

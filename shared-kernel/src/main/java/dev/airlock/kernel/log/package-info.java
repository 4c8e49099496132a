/** Logging context for a run (its id and tenant in every line logged while it is handled). */
package dev.airlock.kernel.log;

/**
 * The envelope of a run, read from its linked record: the facts only Airlock writes (state, exit
 * status, byte counts, digests) and the fenced, sanitized excerpts. Agents receive it as the
 * answer to their run; people see the same envelope in the console and the audit report.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"approval", "artifact", "run"})
package dev.airlock.persistence.envelope;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

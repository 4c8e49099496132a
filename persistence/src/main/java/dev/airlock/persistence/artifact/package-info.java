/**
 * Raw artifacts: the bytes of a run exactly as observed, in the {@code restricted} schema, apart
 * from everything an agent can reach.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"run"})
package dev.airlock.persistence.artifact;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

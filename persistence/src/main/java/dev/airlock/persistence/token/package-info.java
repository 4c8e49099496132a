/**
 * Personal access tokens that people create for bots, stored as SHA-256 digests.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.token;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

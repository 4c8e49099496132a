/**
 * Personal access tokens that people create for bots, stored as SHA-256 digests.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.token;

import org.springframework.modulith.ApplicationModule;

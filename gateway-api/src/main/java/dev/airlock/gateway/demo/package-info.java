/**
 * The demo profile's welcome: how to call the demo tenant's tools.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.demo;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

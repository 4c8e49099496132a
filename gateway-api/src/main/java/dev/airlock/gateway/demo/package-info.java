/**
 * The demo profile's welcome: how to call the demo tenant's tools.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.demo;

import org.springframework.modulith.ApplicationModule;

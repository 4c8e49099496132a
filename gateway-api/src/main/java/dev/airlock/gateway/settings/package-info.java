/**
 * The agent side's settings ({@code airlock.capture}, {@code sandbox}, {@code executor}, {@code mcp},
 * each tenant's {@code tools} and {@code limits}), bound and validated with the settings both sides read.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.settings;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

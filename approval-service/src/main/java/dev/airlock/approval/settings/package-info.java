/**
 * The people's side's settings ({@code airlock.users}, {@code oidc}, {@code login}, {@code tokens},
 * {@code approvals}, {@code purge}, {@code audit}, each tenant's {@code retention}, {@code raw-access}
 * and {@code notifications}), bound and validated with the settings both sides read.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.approval.settings;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

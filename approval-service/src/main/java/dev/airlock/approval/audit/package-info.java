/**
 * What auditors do: search runs and export them (CSV and JSON lines), the report of one run
 * (request, decisions, envelope, audit events), raw access through grants ({@link
 * dev.airlock.approval.audit.RawAccess}, the only caller of the grant service), who may see
 * which run, and the command that verifies tenants' audit chains.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"grant", "input", "notify", "people", "request", "settings"})
package dev.airlock.approval.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

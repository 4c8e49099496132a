/**
 * The web console for people: the approval queue, the run page, the audit viewer and access
 * tokens, rendered on the server with Thymeleaf (templates in this module's {@code templates/}).
 * Everything derived from a run is written as escaped text, never as HTML.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"audit", "grant", "input", "people", "request", "settings"})
package dev.airlock.approval.console;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

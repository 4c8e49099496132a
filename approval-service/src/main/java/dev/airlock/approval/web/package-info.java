/** What the people's APIs answer when a rule of the people's side refuses a request: problem details. */
@NullMarked
@ApplicationModule(allowedDependencies = {"grant", "input", "request"})
package dev.airlock.approval.web;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

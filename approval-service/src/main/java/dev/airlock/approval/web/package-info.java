/** What the people's APIs answer when a rule of the people's side refuses a request: problem details. */
@ApplicationModule(allowedDependencies = {"grant", "input", "request"})
package dev.airlock.approval.web;

import org.springframework.modulith.ApplicationModule;

/**
 * People: the users declared in the configuration and those who sign in through OpenID Connect
 * (their roles per tenant from a claim), personal access tokens for scripts and bots, the
 * throttling of password guessing, and what the signed-in person may see and decide. The
 * people's security chain that uses all of this is in {@code people.web}.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"input", "settings"})
package dev.airlock.approval.people;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

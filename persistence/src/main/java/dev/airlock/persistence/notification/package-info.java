/** Chat and e-mail messages about approval requests, claimed once across replicas and recorded as sent or failed. */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.notification;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

/** Failed sign-ins and the lock-outs they lead to, counted for the whole cluster. */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.login;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

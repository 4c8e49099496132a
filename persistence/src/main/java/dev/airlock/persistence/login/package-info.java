/** Failed sign-ins and the lock-outs they lead to, counted for the whole cluster. */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.login;

import org.springframework.modulith.ApplicationModule;

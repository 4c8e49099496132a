/** What every HTTP input of the application is bounded by before it is parsed: body size and JSON shape. */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.http;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;

/** What every HTTP input of the application is bounded by before it is parsed: body size and JSON shape. */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.http;

import org.springframework.modulith.ApplicationModule;

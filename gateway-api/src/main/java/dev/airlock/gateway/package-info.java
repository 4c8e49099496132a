/**
 * The Airlock gateway: the Spring Boot application that agents call, that runs their actions
 * and returns what the actions printed as inert, fenced data.
 */
@NullMarked
package dev.airlock.gateway;

import org.jspecify.annotations.NullMarked;

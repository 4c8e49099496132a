/**
 * The Airlock gateway: the Spring Boot application that agents call, that runs their actions
 * and returns what the actions printed as inert, fenced data.
 */
package dev.airlock.gateway;

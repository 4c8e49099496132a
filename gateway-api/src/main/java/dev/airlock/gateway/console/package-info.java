/**
 * The web console for people: the approval queue and the run page, rendered on the server with
 * Thymeleaf. Everything derived from a run is written as escaped text, never as HTML.
 */
package dev.airlock.gateway.console;

/**
 * The web console for people: the approval queue, the run page, the audit viewer and access
 * tokens, rendered on the server with Thymeleaf (templates in this module's {@code templates/}).
 * Everything derived from a run is written as escaped text, never as HTML.
 */
package dev.airlock.approval.console;

/**
 * Who may call what: agents authenticate with bearer keys on the agent API only; everything is
 * stateless there, and errors are problem details.
 */
package dev.airlock.gateway.security;

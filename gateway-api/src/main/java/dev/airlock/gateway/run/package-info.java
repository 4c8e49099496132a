/**
 * Runs: requesting one, executing it exactly once, recording what was observed, and the
 * envelope that reports it to the agent.
 */
package dev.airlock.gateway.run;

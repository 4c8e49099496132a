/**
 * Tools: typed parameters, argument-vector templates, and validation of an agent's arguments
 * into the exact argument vector that will run.
 */
package dev.airlock.gateway.tool;

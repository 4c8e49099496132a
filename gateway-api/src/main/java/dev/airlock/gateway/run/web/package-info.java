/**
 * The agent REST API for runs: request, read, wait for, excerpt and cancel.
 */
package dev.airlock.gateway.run.web;

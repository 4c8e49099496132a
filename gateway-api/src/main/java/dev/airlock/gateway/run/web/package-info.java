/**
 * The agent REST API for runs: request, read, wait for, excerpt and cancel.
 */
@NullMarked
package dev.airlock.gateway.run.web;

import org.jspecify.annotations.NullMarked;

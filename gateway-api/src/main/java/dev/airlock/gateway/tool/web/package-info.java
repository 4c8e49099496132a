/**
 * The agent REST API for tools: what an agent may call, with parameter schemas.
 */
@NullMarked
package dev.airlock.gateway.tool.web;

import org.jspecify.annotations.NullMarked;

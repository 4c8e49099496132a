/**
 * The agent REST API for tools: what an agent may call, with parameter schemas.
 */
package dev.airlock.gateway.tool.web;

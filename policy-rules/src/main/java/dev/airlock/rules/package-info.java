/**
 * A tool's approval policy ({@link dev.airlock.rules.ToolPolicy}) and its rules over a request
 * ({@link dev.airlock.rules.ToolRules}): CEL expressions compiled and type-checked against the
 * tool's parameters at start-up, and the decision for one request. Pure: no Spring, no I/O.
 */
@NullMarked
package dev.airlock.rules;

import org.jspecify.annotations.NullMarked;

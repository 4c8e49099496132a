/**
 * The {@code sanitizer-core} command-line tool: sanitizes, escapes or fences standard input.
 */
package dev.airlock.sanitizer.cli;

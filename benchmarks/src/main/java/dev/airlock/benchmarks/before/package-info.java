/**
 * A frozen copy of the sanitizer as it was before the fast-path work of 2026-11-30 (commit 87976b8),
 * benchmarked in the same JMH run as the current one, so that a speed-up is a ratio measured in one
 * process rather than a comparison of two runs on a noisy machine. Not used anywhere else.
 */
package dev.airlock.benchmarks.before;

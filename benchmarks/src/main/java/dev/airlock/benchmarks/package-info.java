/**
 * JMH benchmarks of Airlock's hot paths, each measured next to its baselines in the same run.
 */
package dev.airlock.benchmarks;

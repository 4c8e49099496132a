/**
 * Runs, what Airlock observed of their streams, and their sanitized transcripts.
 */
package dev.airlock.persistence.run;

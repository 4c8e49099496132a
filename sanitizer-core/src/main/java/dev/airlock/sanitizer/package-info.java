/**
 * Turns untrusted terminal output into inert text: a streaming byte sanitizer, the strict
 * audit view, the fence that marks text as data, and a streaming secret redactor.
 *
 * <h2>Thread-safety</h2>
 * Policy objects ({@link dev.airlock.sanitizer.SanitizerPolicy},
 * {@link dev.airlock.sanitizer.SecretRedactor}) are immutable and may be shared by any number
 * of threads. Stream objects ({@link dev.airlock.sanitizer.TerminalSanitizer},
 * {@link dev.airlock.sanitizer.RedactingStream}, {@link dev.airlock.sanitizer.FencedWriter},
 * {@link dev.airlock.sanitizer.AuditView.Encoder}, {@link dev.airlock.sanitizer.AuditView.Decoder})
 * belong to one thread at a time and are cheap to create: make one per stream.
 */
package dev.airlock.sanitizer;

/**
 * The approver API, for chat bots and scripts acting as a signed-in human (never as an agent).
 */
@NullMarked
package dev.airlock.approval.request.web;

import org.jspecify.annotations.NullMarked;

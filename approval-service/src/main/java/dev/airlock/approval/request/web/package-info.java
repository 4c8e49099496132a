/**
 * The approver API, for chat bots and scripts acting as a signed-in human (never as an agent).
 */
package dev.airlock.approval.request.web;

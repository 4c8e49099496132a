/**
 * What approvers authorize: the exact action a run will execute ({@link Action}), rendered in one
 * canonical text whose SHA-256 a decision names ({@link ActionRendering}).
 */
package dev.airlock.approval.action;

/**
 * The auditors' API: the audit event log of a run and verification of a tenant's chain.
 */
@NullMarked
package dev.airlock.approval.audit.web;

import org.jspecify.annotations.NullMarked;

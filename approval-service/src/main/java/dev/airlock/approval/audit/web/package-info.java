/**
 * The auditors' API: the audit event log of a run and verification of a tenant's chain.
 */
package dev.airlock.approval.audit.web;

/**
 * The gateway's side of approvals: the canonical rendering of the exact action humans
 * authorize, applying their outcome to the run, prompt execution after approval (in-process
 * events and PostgreSQL LISTEN/NOTIFY across replicas), and the expiry job.
 */
package dev.airlock.gateway.approval;

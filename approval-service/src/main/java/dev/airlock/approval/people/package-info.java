/**
 * People: the users declared in the configuration, their roles per tenant, and what the
 * signed-in person may see and decide.
 */
package dev.airlock.approval.people;

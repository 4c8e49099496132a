/** The events one side publishes and the other hears, within one process: approval requests opened and closed, approved runs finished. */
package dev.airlock.persistence.event;

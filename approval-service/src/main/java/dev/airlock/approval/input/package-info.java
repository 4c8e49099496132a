/** Bounds on the free text people type into Airlock: reasons, names, notes. */
package dev.airlock.approval.input;

/** The configuration both sides read, its strict binding (an unknown key stops the start) and the side switch. */
package dev.airlock.kernel.config;

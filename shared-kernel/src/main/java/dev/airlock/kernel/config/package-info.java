/** The configuration both sides read, its strict binding (an unknown key stops the start) and the side switch. */
@NullMarked
package dev.airlock.kernel.config;

import org.jspecify.annotations.NullMarked;

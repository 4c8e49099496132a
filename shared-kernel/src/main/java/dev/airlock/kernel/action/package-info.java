/** The canonical rendering of an action and its digest: what approvers authorize and what the agent side checks before it runs. */
@NullMarked
package dev.airlock.kernel.action;

import org.jspecify.annotations.NullMarked;

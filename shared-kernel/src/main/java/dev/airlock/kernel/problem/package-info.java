/** Problems either side answers with, as RFC 9457 problem details: a status, a type, a title and a detail, no web types. */
@NullMarked
package dev.airlock.kernel.problem;

import org.jspecify.annotations.NullMarked;

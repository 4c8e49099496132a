package dev.airlock.gateway.http;

import dev.airlock.kernel.problem.RunNotFound;
import java.beans.PropertyEditorSupport;
import java.util.UUID;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Every id a path or query parameter gives ({@code @PathVariable UUID runId}) is read in its
 * canonical form only: Spring's own conversion ends in {@code UUID.fromString}, which also reads
 * short forms such as {@code 1-1-1-1-1} as another id. Anything else is a 400 naming the
 * parameter. An editor, not a converter: a converter that refuses is passed over for Spring's
 * default UUID editor, which reads the short forms.
 */
@ControllerAdvice
class CanonicalIds {

    @InitBinder
    void canonicalIds(WebDataBinder binder) {
        binder.registerCustomEditor(UUID.class, new PropertyEditorSupport() {
            @Override
            public void setAsText(String text) {
                if (!RunNotFound.isCanonicalId(text)) {
                    throw new IllegalArgumentException("not an id in its canonical form");
                }
                setValue(UUID.fromString(text));
            }
        });
    }
}

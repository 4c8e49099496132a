package dev.airlock.gateway.run;

import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.StreamName;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/** Cuts excerpts out of a run's sanitized transcripts; raw bytes are never read here. */
@Component
public class OutputExcerpts {

    private final RunViews views;

    OutputExcerpts(RunViews views) {
        this.views = views;
    }

    /** An excerpt of the run's transcript of {@code stream} (empty before the run has ended). */
    public OutputExcerpt excerpt(
            RunRecord run, StreamName stream, @Nullable Integer from, @Nullable Integer to, @Nullable String grep) {
        String transcript = views.transcript(run, stream);
        return OutputExcerpt.of(
                run.id().toString(), run.tool(), stream.key(), transcript == null ? "" : transcript, from, to, grep);
    }
}

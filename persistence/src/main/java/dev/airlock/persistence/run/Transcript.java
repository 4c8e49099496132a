package dev.airlock.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;

/** The sanitized, redacted text of one stream of a run, kept under its own retention. */
@Entity
@Table(name = "transcripts", schema = "airlock")
public class Transcript extends StoredOnce<StreamKey> {

    @EmbeddedId
    private StreamKey key;

    @Column(nullable = false)
    private String text;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Transcript() {}

    public Transcript(StreamKey key, String text, Instant createdAt) {
        this.key = key;
        this.text = text;
        this.createdAt = createdAt;
    }

    public StreamKey key() {
        return key;
    }

    public String text() {
        return text;
    }

    public Instant createdAt() {
        return createdAt;
    }

    @Override
    public StreamKey getId() {
        return key;
    }
}

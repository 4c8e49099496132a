package dev.airlock.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import org.springframework.data.domain.Persistable;
import java.time.Instant;

/** The sanitized, redacted text of one stream of a run, kept under its own retention. */
@Entity
@Table(name = "transcripts", schema = "airlock")
public class Transcript implements Persistable<StreamKey> {

    /** Written once and never updated: saving always inserts, without a look-up first. */
    @Transient
    private boolean isNew = true;

    @EmbeddedId
    private StreamKey key;

    @Column(nullable = false)
    private String text;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Transcript() {
    }

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

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostLoad
    @PostPersist
    void loaded() {
        isNew = false;
    }
}

package dev.airlock.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * What Airlock observed of one stream of a run: counts, digest, truncation, removal counts.
 * Written once, when the run ends; never derived from what the process printed.
 */
@Entity
@Table(name = "run_streams", schema = "airlock")
public class StreamRecord extends StoredOnce<StreamKey> {

    @EmbeddedId
    private StreamKey key;

    @Column(name = "observed_bytes", nullable = false)
    private long observedBytes;

    @Column(name = "retained_bytes", nullable = false)
    private long retainedBytes;

    @Column(nullable = false)
    private boolean truncated;

    @Column(nullable = false)
    private boolean eof;

    @Column(nullable = false)
    private String sha256;

    @Column(nullable = false)
    private String removed;

    @Column(nullable = false)
    private long redactions;

    protected StreamRecord() {}

    /**
     * The facts of one stream.
     *
     * @param removedJson removal counts as a JSON object
     */
    public StreamRecord(
            StreamKey key,
            long observedBytes,
            long retainedBytes,
            boolean truncated,
            boolean eof,
            String sha256,
            String removedJson,
            long redactions) {
        this.key = key;
        this.observedBytes = observedBytes;
        this.retainedBytes = retainedBytes;
        this.truncated = truncated;
        this.eof = eof;
        this.sha256 = sha256;
        this.removed = removedJson;
        this.redactions = redactions;
    }

    public StreamKey key() {
        return key;
    }

    public long observedBytes() {
        return observedBytes;
    }

    public long retainedBytes() {
        return retainedBytes;
    }

    public boolean truncated() {
        return truncated;
    }

    public boolean eof() {
        return eof;
    }

    public String sha256() {
        return sha256;
    }

    public String removedJson() {
        return removed;
    }

    public long redactions() {
        return redactions;
    }

    @Override
    public StreamKey getId() {
        return key;
    }
}

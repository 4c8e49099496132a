package dev.airlock.persistence.artifact;

/** Where a request for raw access stands. */
public enum GrantStatus {
    /** Asked for; waiting for a second person. */
    PENDING,
    /** Granted: its requester may read the bytes until it expires. */
    GRANTED,
    /** Refused by a second person. */
    REFUSED,
    /** Lapsed undecided, or granted and over (never stored: a stored status reads so once its time has passed). */
    EXPIRED
}

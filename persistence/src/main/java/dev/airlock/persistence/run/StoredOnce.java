package dev.airlock.persistence.run;

import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Transient;
import org.springframework.data.domain.Persistable;

/**
 * An entity with an id assigned by Airlock that is new until first stored: saving a new one
 * inserts at once, without the look-up that merging an entity with an assigned id would issue.
 *
 * @param <ID> the id type
 */
@MappedSuperclass
abstract class StoredOnce<ID> implements Persistable<ID> {

    @Transient
    private boolean isNew = true;

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostLoad
    @PostPersist
    void stored() {
        isNew = false;
    }
}

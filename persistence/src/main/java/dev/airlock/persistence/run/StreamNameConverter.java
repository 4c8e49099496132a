package dev.airlock.persistence.run;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import org.jspecify.annotations.Nullable;

/** Stores stream names in lower case, as the API spells them. */
@Converter(autoApply = true)
class StreamNameConverter implements AttributeConverter<StreamName, String> {

    @Override
    public @Nullable String convertToDatabaseColumn(@Nullable StreamName stream) {
        return stream == null ? null : stream.key();
    }

    @Override
    public @Nullable StreamName convertToEntityAttribute(@Nullable String key) {
        return key == null
                ? null
                : StreamName.fromKey(key)
                        .orElseThrow(() -> new IllegalStateException("unknown stream in database: " + key));
    }
}

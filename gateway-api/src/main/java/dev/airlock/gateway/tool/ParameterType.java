package dev.airlock.gateway.tool;

import java.util.Locale;

/** The JSON types a tool parameter can take. */
public enum ParameterType {
    STRING,
    INTEGER,
    BOOLEAN;

    /** The JSON Schema name of the type. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

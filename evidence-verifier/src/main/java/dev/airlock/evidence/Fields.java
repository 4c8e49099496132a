package dev.airlock.evidence;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** Typed reads of parsed JSON, failing with the entry and field named. */
final class Fields {

    private Fields() {}

    static String string(Map<String, Object> object, String field, String where) {
        if (!(object.get(field) instanceof String value)) {
            throw new VerificationFailure(where + ": '" + field + "' is not a string");
        }
        return value;
    }

    static String stringOrNull(Map<String, Object> object, String field, String where) {
        Object value = object.get(field);
        if (value != null && !(value instanceof String)) {
            throw new VerificationFailure(where + ": '" + field + "' is not a string");
        }
        return (String) value;
    }

    static long number(Map<String, Object> object, String field, String where) {
        if (!(object.get(field) instanceof BigDecimal value)) {
            throw new VerificationFailure(where + ": '" + field + "' is not a number");
        }
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            throw new VerificationFailure(where + ": '" + field + "' is not a whole number");
        }
    }

    static List<Object> list(Map<String, Object> object, String field, String where) {
        if (!(object.get(field) instanceof List<?> value)) {
            throw new VerificationFailure(where + ": '" + field + "' is not a list");
        }
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) value;
        return list;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> object, String field, String where) {
        if (!(object.get(field) instanceof Map<?, ?> value)) {
            throw new VerificationFailure(where + ": '" + field + "' is not an object");
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asObject(Object value, String where) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new VerificationFailure(where + " is not a JSON object");
        }
        return (Map<String, Object>) map;
    }
}

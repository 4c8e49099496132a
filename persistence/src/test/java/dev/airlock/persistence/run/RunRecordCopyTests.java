package dev.airlock.persistence.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link RunRecord#copy} copies every field of the record: each field is set to a value of its own
 * (none left at its default), and the copy must hold the same. A field added to the record and
 * forgotten in the copy fails here; a field of a type this test does not know fails too, so that
 * it is looked at.
 */
class RunRecordCopyTests {

    @Test
    void aCopyHoldsEveryFieldOfTheRecord() throws Exception {
        var constructor = RunRecord.class.getDeclaredConstructor();
        constructor.setAccessible(true);
        RunRecord run = constructor.newInstance();
        List<Field> fields = fields();
        int i = 0;
        for (Field field : fields) {
            field.set(run, valueOf(field.getType(), ++i));
        }
        RunRecord copy = run.copy();
        for (Field field : fields) {
            assertThat(field.get(copy)).as(field.getName()).isEqualTo(field.get(run));
        }
        assertThat(copy.isNew()).as("a copy of a stored run counts as stored").isFalse();
    }

    private static List<Field> fields() {
        List<Field> fields = new ArrayList<>();
        for (Field field : RunRecord.class.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                field.setAccessible(true);
                fields.add(field);
            }
        }
        assertThat(fields).hasSizeGreaterThan(20);
        return fields;
    }

    /** A value of {@code type} that no field has by default, different for each field. */
    private static Object valueOf(Class<?> type, int n) {
        if (type == String.class) {
            return "value-" + n;
        }
        if (type == UUID.class) {
            return new UUID(n, n);
        }
        if (type == long.class || type == Long.class) {
            return (long) n;
        }
        if (type == Integer.class || type == int.class) {
            return n;
        }
        if (type == boolean.class || type == Boolean.class) {
            return true;
        }
        if (type == Instant.class) {
            return Instant.ofEpochSecond(1_800_000_000L + n, 123_000);
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return constants[n % constants.length];
        }
        throw new AssertionError(
                "a field of type " + type.getName() + ": teach this test (and RunRecord.copy) about it");
    }
}

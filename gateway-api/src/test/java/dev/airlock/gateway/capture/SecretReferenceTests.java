package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where secret values come from: the forms a configuration may write and what reading them gives. */
class SecretReferenceTests {

    private static final String VALUE = "v4lue-that-must-never-appear";
    private static final SecretSource ENVIRONMENT =
            name -> Optional.ofNullable(Map.of("TOKEN", VALUE).get(name));

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            TOKEN                     | ENV  | TOKEN
            env:TOKEN                 | ENV  | TOKEN
            env:_under_score9         | ENV  | _under_score9
            file:/run/secrets/token   | FILE | /run/secrets/token
            """)
    void parsesEachForm(String text, SecretReference.Kind kind, String target) {
        assertThat(SecretReference.parse(text)).isEqualTo(new SecretReference(kind, target));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not a var                | is not an environment variable name
            env:                     | is not an environment variable name
            env:9LIVES               | is not an environment variable name
            file:relative/token      | file: must be an absolute path
            file:/run/../etc/shadow  | file: must be a normalized path
            file:                    | file: must be an absolute path
            vault:kv/token           | is not an environment variable name
            """)
    void refusesAnythingElse(String text, String problem) {
        assertThatThrownBy(() -> SecretReference.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(problem);
    }

    @Test
    void readsAnEnvironmentVariableOfTheGateway() throws Exception {
        assertThat(SecretReference.parse("TOKEN").read(ENVIRONMENT)).isEqualTo(VALUE);
        assertThatThrownBy(() -> SecretReference.parse("env:OTHER").read(ENVIRONMENT))
                .isInstanceOf(SecretReference.SecretUnavailable.class)
                .hasMessage("gateway variable OTHER is not set");
    }

    @Test
    void readsAFileWhenAskedDroppingOneFinalLineBreak() throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, VALUE + "\n");
        assertThat(SecretReference.parse("file:" + file).read(ENVIRONMENT)).isEqualTo(VALUE);
        Files.writeString(file, VALUE + "\r\n");
        assertThat(SecretReference.parse("file:" + file).read(ENVIRONMENT)).isEqualTo(VALUE);
        Files.writeString(file, VALUE + "\n\n");
        assertThat(SecretReference.parse("file:" + file).read(ENVIRONMENT)).isEqualTo(VALUE + "\n");
        Files.writeString(file, "caf\u00e9 " + VALUE);
        assertThat(SecretReference.parse("file:" + file).read(ENVIRONMENT)).isEqualTo("caf\u00e9 " + VALUE);
    }

    @Test
    void namesTheFileButNeverTheValueWhenItCannotBeUsed() throws Exception {
        Path missing = dir.resolve("missing");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        Path nul = Files.write(dir.resolve("nul"), (VALUE + "\0x").getBytes(StandardCharsets.UTF_8));
        Path latin1 = Files.write(dir.resolve("latin1"), (VALUE + "\u00e9").getBytes(StandardCharsets.ISO_8859_1));
        Path big = Files.write(dir.resolve("big"), new byte[SecretReference.MAX_FILE_BYTES + 1]);

        assertUnavailable(missing, "file " + missing + " does not exist");
        assertUnavailable(empty, "file " + empty + " is empty");
        assertUnavailable(nul, "file " + nul + " contains a NUL byte");
        assertUnavailable(latin1, "file " + latin1 + " is not valid UTF-8");
        assertUnavailable(big, "file " + big + " is larger than 65536 bytes");
        assertUnavailable(dir, "file " + dir + " is a directory");
    }

    private static void assertUnavailable(Path file, String message) {
        assertThatThrownBy(() -> SecretReference.parse("file:" + file).read(ENVIRONMENT))
                .isInstanceOf(SecretReference.SecretUnavailable.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(VALUE));
    }
}

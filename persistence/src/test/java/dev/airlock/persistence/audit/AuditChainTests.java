package dev.airlock.persistence.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The chain's rules on their own: the canonical details, and a hash that covers every field. */
class AuditChainTests {

    private static final UUID RUN = UUID.fromString("01234567-89ab-cdef-0123-456789abcdef");
    private static final Instant AT = Instant.parse("2026-11-30T12:00:00.123456789Z");

    @Test
    void detailsAreAJsonObjectOfStringsWithSortedKeysAndEscapedControls() {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("z", "last");
        details.put("a", "quote \" backslash \\ tab \t nel \u0085 ls \u2028 del \u007f");
        details.put("m", null);
        assertThat(AuditChain.json(details))
                .isEqualTo(
                        "{\"a\":\"quote \\\" backslash \\\\ tab \\u0009 nel \\u0085 ls \\u2028 del \\u007f\",\"m\":null,\"z\":\"last\"}");
        assertThat(AuditChain.json(Map.of())).isEqualTo("{}");
    }

    @Test
    void theHashIsSha256OfTheFieldsLineByLineWithMicroseconds() throws Exception {
        String expected = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(String.join(
                                        "\n",
                                        AuditChain.GENESIS,
                                        "acme",
                                        "1",
                                        "run.requested",
                                        RUN.toString(),
                                        "agent:bot",
                                        "{}",
                                        "2026-11-30T12:00:00.123456Z")
                                .getBytes(StandardCharsets.UTF_8)));
        assertThat(AuditChain.hash(AuditChain.GENESIS, "acme", 1, "run.requested", RUN, "agent:bot", "{}", AT))
                .isEqualTo(expected);
        assertThat(AuditChain.hash(AuditChain.GENESIS, "acme", 1, "config.changed", null, "airlock", "{}", AT))
                .as("no run: an empty line")
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256")
                                .digest(String.join(
                                                "\n",
                                                AuditChain.GENESIS,
                                                "acme",
                                                "1",
                                                "config.changed",
                                                "",
                                                "airlock",
                                                "{}",
                                                "2026-11-30T12:00:00.123456Z")
                                        .getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void changingAnyFieldChangesTheHash() {
        String base = AuditChain.hash(AuditChain.GENESIS, "acme", 1, "run.requested", RUN, "agent:bot", "{}", AT);
        assertThat(List.of(
                        AuditChain.hash("1".repeat(64), "acme", 1, "run.requested", RUN, "agent:bot", "{}", AT),
                        AuditChain.hash(AuditChain.GENESIS, "acme2", 1, "run.requested", RUN, "agent:bot", "{}", AT),
                        AuditChain.hash(AuditChain.GENESIS, "acme", 2, "run.requested", RUN, "agent:bot", "{}", AT),
                        AuditChain.hash(AuditChain.GENESIS, "acme", 1, "run.started", RUN, "agent:bot", "{}", AT),
                        AuditChain.hash(
                                AuditChain.GENESIS,
                                "acme",
                                1,
                                "run.requested",
                                UUID.randomUUID(),
                                "agent:bot",
                                "{}",
                                AT),
                        AuditChain.hash(AuditChain.GENESIS, "acme", 1, "run.requested", RUN, "agent:other", "{}", AT),
                        AuditChain.hash(
                                AuditChain.GENESIS, "acme", 1, "run.requested", RUN, "agent:bot", "{\"a\":\"b\"}", AT),
                        AuditChain.hash(
                                AuditChain.GENESIS,
                                "acme",
                                1,
                                "run.requested",
                                RUN,
                                "agent:bot",
                                "{}",
                                AT.plusNanos(1000))))
                .doesNotContain(base)
                .doesNotHaveDuplicates();
    }

    @Test
    void everyEventTypeHasADistinctStoredName() {
        assertThat(java.util.Arrays.stream(AuditEventType.values())
                        .map(AuditEventType::key)
                        .distinct()
                        .count())
                .isEqualTo(AuditEventType.values().length);
        assertThat(AuditEventType.RUN_REQUESTED.key()).isEqualTo("run.requested");
        assertThat(AuditEventType.LEGAL_HOLD_PLACED.key()).isEqualTo("legal-hold.placed");
    }
}

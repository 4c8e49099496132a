package dev.airlock.approval.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.persistence.audit.RunSummary;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** CSV cells and lines of the audit export: exact input to exact output. */
class AuditQueriesTests {

    static Stream<Arguments> cells() {
        return Stream.of(
                Arguments.of("plain", "plain"),
                Arguments.of("", ""),
                Arguments.of(null, ""),
                Arguments.of("a,b", "\"a,b\""),
                Arguments.of("say \"hi\"", "\"say \"\"hi\"\"\""),
                Arguments.of("two\nlines", "\"two\nlines\""),
                Arguments.of("2026-11-30T01:00:00Z", "2026-11-30T01:00:00Z"),
                Arguments.of("0", "0"),
                Arguments.of("alice:APPROVE,bob:DENY", "\"alice:APPROVE,bob:DENY\""));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @MethodSource("cells")
    void quotesCellsAsRfc4180Says(String value, String expected) {
        assertThat(AuditQueries.cell(value)).isEqualTo(expected);
    }

    /** Every first character OWASP lists for CSV injection: = + - @ TAB CR. */
    static Stream<Arguments> formulas() {
        return Stream.of(
                Arguments.of("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""),
                Arguments.of("=1+2", "'=1+2"),
                Arguments.of("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
                Arguments.of("+1", "'+1"),
                Arguments.of("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
                Arguments.of("-1", "'-1"),
                Arguments.of("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
                Arguments.of("-", "'-"),
                Arguments.of("@sum", "'@sum"),
                Arguments.of("@SUM(1+9)*cmd|' /C calc'!A0", "'@SUM(1+9)*cmd|' /C calc'!A0"),
                Arguments.of("\t=1", "'\t=1"),
                Arguments.of("\tx", "'\tx"),
                Arguments.of("\rcr", "\"'\rcr\""),
                Arguments.of("-1,-2", "\"'-1,-2\""));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @MethodSource("formulas")
    void prefixesATextThatASpreadsheetWouldReadAsAFormula(String value, String expected) {
        assertThat(AuditQueries.cell(value)).isEqualTo(expected);
    }

    /** The same characters anywhere but first start no formula and are left alone. */
    static Stream<Arguments> notFormulas() {
        return Stream.of(
                Arguments.of("a=b", "a=b"),
                Arguments.of("1+1", "1+1"),
                Arguments.of("build-bot", "build-bot"),
                Arguments.of("me@example.test", "me@example.test"),
                Arguments.of("a\tb", "a\tb"),
                Arguments.of(" -1", " -1"),
                Arguments.of("'-1", "'-1"));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @MethodSource("notFormulas")
    void leavesTheseCharactersAloneAnywhereButFirst(String value, String expected) {
        assertThat(AuditQueries.cell(value)).isEqualTo(expected);
    }

    @Test
    void writesALineInTheHeaderOrder() {
        RunSummary run = new RunSummary(
                UUID.fromString("01a22a17-664e-75ad-ad5c-fd1aedd07994"),
                "acme",
                "build-bot",
                "deploy",
                "COMPLETED",
                "APPROVED",
                "alice:APPROVE,bob:APPROVE",
                0,
                "EXITED",
                Instant.parse("2026-11-30T01:00:00Z"),
                Instant.parse("2026-11-30T01:00:01Z"),
                null);
        assertThat(AuditQueries.csv(run))
                .isEqualTo("01a22a17-664e-75ad-ad5c-fd1aedd07994,acme,build-bot,deploy,COMPLETED,APPROVED,"
                        + "\"alice:APPROVE,bob:APPROVE\",0,EXITED,2026-11-30T01:00:00Z,2026-11-30T01:00:01Z,");
        assertThat(AuditQueries.csv(run).split(",", -1)).hasSize(AuditQueries.CSV_COLUMNS.size() + 1);
    }
}

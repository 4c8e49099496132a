package dev.airlock.kernel.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The globs settings name tools with: exact whole-name matches. */
class GlobsTests {

    @ParameterizedTest
    @CsvSource({
        "deploy-*, deploy-web, true",
        "deploy-*, deploy-, true",
        "deploy-*, redeploy-web, false",
        "list_?, list_a, true",
        "list_?, list_ab, false",
        "github.*, github.create_issue, true",
        "github.*, githubXcreate, false",
        "a+b, a+b, true",
        "a+b, aab, false",
        "*, anything, true",
        "*, '', true",
        "?, '', false",
        "a**b, ab, true",
        "*a*b, xaxxb, true",
        "*a*b, xaxxbx, false",
        "*.createIssue, github.createIssue, true",
        "*.createIssue, github.createissue, false",
        "echo, echo2, false"
    })
    void matchesWholeNamesWithOnlyStarAndQuestionMarkSpecial(String glob, String name, boolean matches) {
        assertThat(Globs.matches(glob, name)).isEqualTo(matches);
    }

    @org.junit.jupiter.api.Test
    void aPatternOfManyStarsAgainstAHostileNameEndsAtOnce() {
        // As a regular expression this pattern backtracks combinatorially on a name of a's; the
        // bound only keeps a regression from hanging the build.
        String glob = "*a".repeat(50) + "b";
        String name = "a".repeat(128);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(30),
                () -> assertThat(Globs.matches(glob, name)).isFalse());
        assertThat(Globs.matches(glob, name + "b")).isTrue();
    }
}

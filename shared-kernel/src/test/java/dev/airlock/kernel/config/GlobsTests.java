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
        "echo, echo2, false"
    })
    void matchesWholeNamesWithOnlyStarAndQuestionMarkSpecial(String glob, String name, boolean matches) {
        assertThat(Globs.matches(glob, name)).isEqualTo(matches);
    }
}

package dev.airlock.gateway.support;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The gateway on a random port with the test tenants, and one headless Chromium per test class
 * (every test is skipped, with the reason, where the browser is not installed; CI fails instead).
 * Browser test classes extend it and so share one application context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import({TestDatabaseConfiguration.class, TestSecrets.class, MovableClock.Configuration.class})
public abstract class BrowserIntegrationTest {

    /** The browser, or null where it is not installed. */
    protected static ChromeDriver browser;

    @LocalServerPort
    protected int port;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @BeforeEach
    void requireBrowser() {
        Browser.assumeAvailable(browser);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
    }

    /** The gateway's address. */
    protected String base() {
        return "http://127.0.0.1:" + port;
    }

    /** axe-core from npm ({@code npm ci} in gateway-api/src/test/browser, as .ci/run does). */
    private static final java.nio.file.Path AXE =
            java.nio.file.Path.of("src/test/browser/node_modules/axe-core/axe.min.js");

    /**
     * Runs axe-core in the page the browser shows and fails on any serious or critical violation
     * (WCAG 2.x A and AA rules and axe's best practices), naming each rule and the elements.
     */
    protected static void assertAccessible(String page) {
        if (!java.nio.file.Files.isRegularFile(AXE)) {
            if (System.getenv("CI") != null) {
                throw new IllegalStateException("CI must run npm ci in gateway-api/src/test/browser (see .ci/run)");
            }
            org.junit.jupiter.api.Assumptions.abort(
                    "skipped: axe-core is not installed (npm ci in gateway-api/src/test/browser)");
        }
        try {
            browser.executeScript(java.nio.file.Files.readString(AXE));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Object violations = browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations"
                + ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                + ".map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at '"
                + " + v.nodes.map(n => n.target.join(' ')).join(', '))))"
                + ".catch(e => done(['axe failed: ' + e]));");
        org.assertj.core.api.Assertions.assertThat((java.util.List<?>) violations)
                .as("serious or critical accessibility violations on " + page)
                .isEmpty();
    }

    /** Whether the page fits a phone's 360 CSS pixels without scrolling sideways. */
    protected static void assertFitsAPhone(String page) {
        org.openqa.selenium.Dimension before = browser.manage().window().getSize();
        try {
            browser.manage().window().setSize(new org.openqa.selenium.Dimension(360, 800));
            Object width = browser.executeScript("return document.documentElement.scrollWidth;");
            org.assertj.core.api.Assertions.assertThat(((Number) width).intValue())
                    .as(page + " at 360 px wide")
                    .isLessThanOrEqualTo(360);
        } finally {
            browser.manage().window().setSize(before);
        }
    }
}

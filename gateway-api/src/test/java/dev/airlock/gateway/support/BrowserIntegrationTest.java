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
}

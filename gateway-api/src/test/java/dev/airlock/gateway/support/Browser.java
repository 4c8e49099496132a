package dev.airlock.gateway.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium driven through the system's chromedriver (Debian packages
 * {@code chromium} and {@code chromium-driver}); nothing is downloaded. Where they are missing
 * the browser tests are skipped, except in CI, where that is a failure.
 */
public final class Browser {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Browser() {}

    /**
     * Starts the browser, or returns null where it is not installed (outside CI); call
     * {@link #assumeAvailable} before each test so that every test is reported as skipped, with
     * the reason, instead of none being counted.
     */
    public static ChromeDriver start() {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!installed && System.getenv("CI") != null) {
            throw new IllegalStateException("CI must install chromium and chromium-driver (see .ci/run)");
        }
        if (!installed) {
            return null;
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1200,1600");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(2));
        return driver;
    }

    /** Skips the calling test, with the reason, when {@link #start} found no browser. */
    public static void assumeAvailable(ChromeDriver driver) {
        Assumptions.assumeTrue(
                driver != null,
                "skipped: chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)");
    }
}

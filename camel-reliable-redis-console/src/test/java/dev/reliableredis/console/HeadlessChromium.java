package dev.reliableredis.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium driven by its ChromeDriver, both named by path so that Selenium Manager never looks for a
 * browser on the network, and started without the background calls home that a closed network refuses.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static final String MISSING = "no Chromium/ChromeDriver at /usr/bin: install the Debian packages chromium and "
            + "chromium-driver";

    private final Path profile;
    private final ChromeDriver driver;

    private HeadlessChromium(Path profile, ChromeDriver driver) {
        this.profile = profile;
        this.driver = driver;
    }

    static boolean installed() {
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    }

    /** A browser with a fresh profile of its own. */
    static HeadlessChromium start() throws IOException {
        Path profile = Files.createTempDirectory("dashboard-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,860");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        return new HeadlessChromium(profile, new ChromeDriver(service, options));
    }

    ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

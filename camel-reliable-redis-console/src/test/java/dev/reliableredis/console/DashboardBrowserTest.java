package dev.reliableredis.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.BrowsedMessage;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.QueueSettings;
import dev.reliableredis.queue.QueueStats;
import dev.reliableredis.queue.Queues;
import dev.reliableredis.queue.RateLimit;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.list.ListQueue;
import dev.reliableredis.queue.redis.RedisGateway;
import dev.reliableredis.queue.stream.StreamQueue;
import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static dev.reliableredis.console.SampleQueues.GROUP;
import static dev.reliableredis.console.SampleQueues.LIST_QUEUE;
import static dev.reliableredis.console.SampleQueues.STREAM_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard in a real headless Chromium: what an operator sees and what the buttons do in Redis. Skipped, and
 * says why, where Debian's chromium and chromium-driver are not installed.
 */
class DashboardBrowserTest {

    /** The page polls every 2 s: a few polls. */
    private static final Duration PAGE_WAIT = Duration.ofSeconds(15);

    private static RedisProcess redisServer;
    private static RedisClient client;
    private static RedisGateway redis;
    private static ReliableRedisDashboard dashboard;
    private static HeadlessChromium chromium;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws IOException {
        Assumptions.assumeTrue(HeadlessChromium.installed(), HeadlessChromium.MISSING);
        redisServer = RedisProcess.start();
        client = RedisClient.create(redisServer.uri());
        redis = RedisGateway.using(client, Duration.ofSeconds(5));
        dashboard = ReliableRedisDashboard.forClient(client).visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT);
        dashboard.start();
        chromium = HeadlessChromium.start();
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (dashboard != null) {
            dashboard.close();
            redis.close();
            client.shutdown();
            redisServer.close();
        }
    }

    @BeforeEach
    void openPageOnFreshQueues() {
        redisServer.commands().flushall();
        SampleQueues.fill(redis);
        browser.get(dashboard.url());
    }

    @Test
    void showsEveryQueueWithItsDepths() {
        for (String queue : new String[] {LIST_QUEUE, STREAM_QUEUE}) {
            pageShows(queue, "ready", "3");
            pageShows(queue, "inflight", "1");
            pageShows(queue, "delayed", "1");
            pageShows(queue, "dead", "2");
        }
        assertThat(row(STREAM_QUEUE).findElements(By.tagName("td")).get(2).getText()).isEqualTo(GROUP);
        assertThat(browser.findElement(By.id("prefix")).getText()).isEqualTo("rr");
    }

    @Test
    void showsAShardedQueueAsOneRowWithItsShardsSums() {
        Queues.shardCount(redis, "rr", "ledger", 3, null).check();
        ReliableQueue ledger = Queues.open(redis, "rr", "ledger", 3, null, QueueSettings.defaults());
        for (int i = 0; i < 9; i++) {
            ledger.enqueue(new NewMessage("ledger-" + i, new byte[] {1}, null, 0));
        }
        assertThat(ledger.stats().ready()).isEqualTo(9);
        // a dashboard of its own: the shared one reuses a discovery made before the queue existed for 30 s
        try (ReliableRedisDashboard fresh = ReliableRedisDashboard.forClient(client)
                .visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT)) {
            fresh.start();
            browser.get(fresh.url());

            pageShows("ledger", "ready", "9");
            assertThat(browser.findElements(By.cssSelector("tr[data-queue^='ledger#']"))).as("no row per shard")
                    .isEmpty();
        }
    }

    @Test
    void showsTheMessagesOfTheSelectedQueueSectionBySection() {
        openQueue(LIST_QUEUE);

        pageShowsMessage("inflight", LIST_QUEUE + "-inflight-1");
        pageShowsMessage("delayed", LIST_QUEUE + "-delayed-1");
        pageShowsMessage("ready", LIST_QUEUE + "-ready-3");
        WebElement inflight = message("inflight", LIST_QUEUE + "-inflight-1");
        assertThat(cells(inflight).get(1).getText()).matches("\\d+ ms|\\d+\\.\\d s");
        assertThat(cells(inflight).get(2).getText()).isEqualTo("1");
        assertThat(cells(message("delayed", LIST_QUEUE + "-delayed-1")).get(1).getText()).matches("5\\d min \\d+ s");
        assertThat(cells(message("dead", LIST_QUEUE + "-dead-2")).get(1).getText())
                .isEqualTo("java.io.IOException: timeout");

        openQueue(STREAM_QUEUE);
        pageShowsMessage("inflight", STREAM_QUEUE + "-inflight-1");
        assertThat(cells(message("inflight", STREAM_QUEUE + "-inflight-1")).get(3).getText()).isEqualTo("filler");
    }

    @Test
    void showsMarkupFromRedisAsText() {
        openQueue(LIST_QUEUE);
        pageShowsMessage("dead", LIST_QUEUE + "-dead-1");

        List<WebElement> dead = cells(message("dead", LIST_QUEUE + "-dead-1"));
        assertThat(dead.get(1).getText()).isEqualTo(SampleQueues.XSS_FAILURE);
        assertThat(dead.get(4).getText()).isEqualTo(SampleQueues.XSS_BODY + "\nnote: <script>alert(1)</script>");
        assertThat(browser.findElements(By.cssSelector("#details img, #details b, #details script"))).isEmpty();
        assertThat(browser.getTitle()).isEqualTo("reliable-redis dashboard");
    }

    @Test
    void redriveOfOneDeadLetterMovesItBackToReadyInBothModes() {
        for (ReliableQueue queue : List.of(SampleQueues.listQueue(redis), SampleQueues.streamQueue(redis))) {
            String messageId = queue.name() + "-dead-1";
            openQueue(queue.name());
            pageShowsMessage("dead", messageId);

            click(By.cssSelector("table[data-section='dead'] tr[data-key='" + messageId + "'] button.redrive-one"));

            await().until(d -> ids(queue, QueueSection.READY).contains(messageId));
            assertThat(ids(queue, QueueSection.DEAD)).containsExactly(queue.name() + "-dead-2");
            pageShowsMessage("ready", messageId);
            await().until(d -> browser.findElements(By.cssSelector(
                    "table[data-section='dead'] tr[data-key='" + messageId + "']")).isEmpty());
            pageShows(queue.name(), "dead", "1");
            pageShows(queue.name(), "ready", "4");
        }
    }

    @Test
    void redriveButtonMovesTheDeadLettersBackToReady() {
        pageShows(LIST_QUEUE, "dead", "2");

        click(By.cssSelector("tr[data-queue='" + LIST_QUEUE + "'] button.redrive-all"));

        await().until(d -> SampleQueues.listQueue(redis).stats().dead() == 0);
        assertThat(SampleQueues.listQueue(redis).stats().ready()).isEqualTo(5);
        pageShows(LIST_QUEUE, "dead", "0");
        pageShows(LIST_QUEUE, "ready", "5");
        assertThat(browser.findElement(By.id("notice")).getText()).contains("Redrove 2 dead letter(s) of orders");
    }

    @Test
    void purgeButtonAsksFirstThenRemovesReadyDelayedAndDeadMessages() {
        pageShows(STREAM_QUEUE, "ready", "3");

        click(By.cssSelector("tr[data-queue='" + STREAM_QUEUE + "'] button.purge"));
        await().until(ExpectedConditions.alertIsPresent()).accept();

        await().until(d -> SampleQueues.streamQueue(redis).stats().ready() == 0);
        QueueStats stats = SampleQueues.streamQueue(redis).stats();
        assertThat(stats.delayed()).isZero();
        assertThat(stats.dead()).isZero();
        assertThat(stats.inflight()).isEqualTo(1);
        pageShows(STREAM_QUEUE, "ready", "0");
        pageShows(STREAM_QUEUE, "dead", "0");
        pageShows(LIST_QUEUE, "ready", "3");
    }

    @Test
    void pauseButtonAsksHowLongThenPausesTheQueueUntilResumeButtonResumesIt() {
        pageShows(LIST_QUEUE, "ready", "3");

        click(By.cssSelector("tr[data-queue='" + LIST_QUEUE + "'] button.pause"));
        await().until(ExpectedConditions.alertIsPresent()).accept();

        await().until(d -> SampleQueues.listQueue(redis).stats().paused());
        assertThat(redisServer.commands().pttl("rr:{" + LIST_QUEUE + "}:paused")).as("until resumed").isEqualTo(-1);
        assertThat(SampleQueues.streamQueue(redis).stats().paused()).as("the other queue").isFalse();
        await().until(d -> row(LIST_QUEUE).findElement(By.cssSelector(".paused-badge")).isDisplayed());
        assertThat(browser.findElement(By.id("notice")).getText()).contains("Paused " + LIST_QUEUE + " until resumed");

        click(By.cssSelector("tr[data-queue='" + LIST_QUEUE + "'] button.resume"));

        await().until(d -> !SampleQueues.listQueue(redis).stats().paused());
        await().until(d -> !row(LIST_QUEUE).findElement(By.cssSelector(".paused-badge")).isDisplayed());
        assertThat(row(LIST_QUEUE).findElement(By.cssSelector("button.pause")).isDisplayed()).isTrue();
    }

    @Test
    void aPauseForSomeMinutesEndsByItself() {
        click(By.cssSelector("tr[data-queue='" + STREAM_QUEUE + "'] button.pause"));
        Alert prompt = await().until(ExpectedConditions.alertIsPresent());
        prompt.sendKeys("5");
        prompt.accept();

        await().until(d -> SampleQueues.streamQueue(redis).stats().paused());
        assertThat(redisServer.commands().pttl("rr:{" + STREAM_QUEUE + "}:paused")).as("5 minutes, on the Redis clock")
                .isBetween(1L, 300_000L);
        await().until(d -> row(STREAM_QUEUE).findElement(By.cssSelector(".paused-badge")).isDisplayed());
    }

    @Test
    void aQueueAtItsCapOrItsRateLimitShowsABadgeUntilItIsNoLonger() {
        // each sample queue has one message in flight and three ready
        ListQueue capped = SampleQueues.listQueue(redis, SampleQueues.SETTINGS.toBuilder().maxInflight(2).build());
        List<Delivery> taken = capped.claim(1);
        assertThat(taken).as("room for one").hasSize(1);
        assertThat(capped.claim(1)).as("then the cap").isEmpty();
        StreamQueue limited = SampleQueues.streamQueue(redis,
                SampleQueues.SETTINGS.toBuilder().rateLimit(new RateLimit(1, Duration.ofHours(1), 1)).build());
        assertThat(limited.claim(1)).as("the one the limit allows").hasSize(1);
        assertThat(limited.claim(1)).as("then the limit").isEmpty();

        await().until(d -> row(LIST_QUEUE).findElement(By.cssSelector(".capped-badge")).isDisplayed());
        await().until(d -> row(STREAM_QUEUE).findElement(By.cssSelector(".limited-badge")).isDisplayed());
        assertThat(row(LIST_QUEUE).findElement(By.cssSelector(".limited-badge")).isDisplayed()).isFalse();
        assertThat(row(STREAM_QUEUE).findElement(By.cssSelector(".capped-badge")).isDisplayed()).isFalse();

        capped.ack(List.of(taken.get(0).lease()));

        await().until(d -> !row(LIST_QUEUE).findElement(By.cssSelector(".capped-badge")).isDisplayed());
    }

    @Test
    void aQueueWithFifoGroupsShowsHowManyUntilTheyAreSettled() {
        ListQueue grouped = SampleQueues.listQueue(redis);
        for (String id : new String[] {"a-1", "a-2", "a-3", "b-1"}) {
            grouped.enqueue(new NewMessage(id, new byte[] {1}, null, 0, null, 0, NewMessage.DEFAULT_PRIORITY,
                    id.substring(0, 1)));
        }

        await().until(d -> row(LIST_QUEUE).findElement(By.cssSelector(".groups-badge")).getText()
                .equals("2 FIFO groups"));
        assertThat(row(STREAM_QUEUE).findElement(By.cssSelector(".groups-badge")).isDisplayed()).isFalse();
        pageShows(LIST_QUEUE, "ready", "7");
        openQueue(LIST_QUEUE);
        pageShowsMessage("ready", "a-3");

        List<Delivery> heads = grouped.claim(10);
        assertThat(heads).extracting(Delivery::messageId).containsExactlyInAnyOrder(LIST_QUEUE + "-ready-1",
                LIST_QUEUE + "-ready-2", LIST_QUEUE + "-ready-3", "a-1", "b-1");
        grouped.ack(heads.stream().filter(h -> h.messageId().equals("b-1")).map(Delivery::lease).toList());

        await().until(d -> row(LIST_QUEUE).findElement(By.cssSelector(".groups-badge")).getText()
                .equals("1 FIFO group"));
    }

    @Test
    void aQueueWithAScheduleShowsItsNextTick() {
        ListQueue scheduled = SampleQueues.listQueue(redis);
        scheduled.declareSchedule("0 0 2 * * ?", "UTC");
        String next = java.time.Instant.ofEpochMilli(scheduled.nextTick()).toString().substring(0, 19).replace('T', ' ');

        await().until(d -> row(LIST_QUEUE).findElement(By.cssSelector(".schedule-badge")).getText()
                .equals("next tick " + next + " UTC"));
        assertThat(next).endsWith("02:00:00");
        assertThat(row(STREAM_QUEUE).findElement(By.cssSelector(".schedule-badge")).isDisplayed()).isFalse();
    }

    @Test
    void aReadOnlyDashboardShowsTheQueuesWithoutAnyActionButton() {
        try (ReliableRedisDashboard readOnly = ReliableRedisDashboard.forClient(client)
                .visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT).readOnly()) {
            readOnly.start();
            browser.get(readOnly.url());

            pageShows(LIST_QUEUE, "dead", "2");
            await().until(d -> browser.findElement(By.id("read-only")).isDisplayed());
            openQueue(LIST_QUEUE);
            pageShowsMessage("dead", LIST_QUEUE + "-dead-1");
            assertThat(browser.findElements(By.cssSelector(
                    "button.purge, button.redrive-all, button.redrive-one, button.pause, button.resume")))
                    .isNotEmpty().noneMatch(WebElement::isDisplayed);
        }
    }

    @Test
    void withATokenThePageIsRefusedWithoutItAndShownWithIt() {
        String token = "browser-token-7431";
        try (ReliableRedisDashboard locked = ReliableRedisDashboard.forClient(client)
                .visibilityTimeout(SampleQueues.VISIBILITY_TIMEOUT).token(token)) {
            locked.start();

            browser.get(locked.url());
            assertThat(browser.getTitle()).isNotEqualTo("reliable-redis dashboard");
            // Chromium waits for the user name and password the 401 asks for, and shows nothing of the dashboard
            assertThat(browser.getPageSource()).doesNotContain(LIST_QUEUE).doesNotContain("queues under the key prefix");

            // what the browser sends once an operator has answered its prompt: Basic, any user name, the token
            browser.executeCdpCommand("Network.enable", Map.of());
            browser.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(("ops:" + token).getBytes(StandardCharsets.UTF_8)))));
            try {
                browser.get(locked.url());
                pageShows(LIST_QUEUE, "ready", "3");
                assertThat(browser.getTitle()).isEqualTo("reliable-redis dashboard");
            } finally {
                browser.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of()));
            }
        }
    }

    @Test
    void savesAScreenshot() throws IOException {
        pageShows(STREAM_QUEUE, "dead", "2");
        openQueue(LIST_QUEUE);
        pageShowsMessage("ready", LIST_QUEUE + "-ready-3");

        // the whole page: the window grows to the page's height, its own frame included
        long frame = (Long) browser.executeScript("return window.outerHeight - window.innerHeight");
        long page = (Long) browser.executeScript("return document.documentElement.scrollHeight");
        browser.manage().window().setSize(new Dimension(1280, (int) (page + frame)));
        Path screenshot = screenshotPath();
        Files.createDirectories(screenshot.toAbsolutePath().getParent());
        Files.write(screenshot, browser.getScreenshotAs(OutputType.BYTES));
        assertThat(screenshot).isNotEmptyFile();
    }

    /** -Ddashboard.screenshot=docs/operations/dashboard.png (from the repository's root) for the docs, else target/. */
    private static Path screenshotPath() {
        String wanted = System.getProperty("dashboard.screenshot");
        if (wanted == null || wanted.isBlank()) {
            return Path.of("target", "dashboard.png");
        }
        Path path = Path.of(wanted);
        return path.isAbsolute() ? path : Path.of(System.getProperty("dashboard.root", ".")).resolve(path);
    }

    private static void pageShows(String queue, String count, String value) {
        await().until(d -> textOf(By.cssSelector("tr[data-queue='" + queue + "'] td[data-count='" + count + "']"))
                .equals(value));
    }

    private static void openQueue(String queue) {
        click(By.cssSelector("tr[data-queue='" + queue + "'] a.queue-link"));
        await().until(d -> textOf(By.id("details-title")).startsWith(queue));
    }

    private static void pageShowsMessage(String section, String messageId) {
        await().until(d -> !browser.findElements(By.cssSelector(
                "table[data-section='" + section + "'] tr[data-key='" + messageId + "']")).isEmpty());
    }

    private static WebElement message(String section, String messageId) {
        return browser.findElement(By.cssSelector(
                "table[data-section='" + section + "'] tr[data-key='" + messageId + "']"));
    }

    private static List<WebElement> cells(WebElement row) {
        return row.findElements(By.tagName("td"));
    }

    private static List<String> ids(ReliableQueue queue, QueueSection section) {
        return queue.browse(section, 100).stream().map(BrowsedMessage::messageId).toList();
    }

    private static WebElement row(String queue) {
        return browser.findElement(By.cssSelector("tr[data-queue='" + queue + "']"));
    }

    /** The element's text, or "" while it is missing or being redrawn. */
    private static String textOf(By locator) {
        try {
            return browser.findElements(locator).stream().findFirst().map(WebElement::getText).orElse("");
        } catch (StaleElementReferenceException e) {
            return "";
        }
    }

    private static void click(By locator) {
        await().until(ExpectedConditions.elementToBeClickable(locator)).click();
    }

    private static WebDriverWait await() {
        WebDriverWait wait = new WebDriverWait(browser, PAGE_WAIT, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }
}

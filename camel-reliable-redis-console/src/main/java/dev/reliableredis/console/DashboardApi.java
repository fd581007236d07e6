package dev.reliableredis.console;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import dev.reliableredis.queue.QueueSection;
import dev.reliableredis.queue.ReliableQueue;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;

/** What the page asks for and what its buttons do, independent of HTTP. */
final class DashboardApi {

    /**
     * A discovery SCANs the whole keyspace, so it is reused this long while the page polls every 2 s; the counts of
     * the queues found are read afresh on every poll. A queue created meanwhile shows up this much later.
     */
    private static final Duration DISCOVERY_REUSE = Duration.ofSeconds(30);
    /** The longest timed pause, the engine's: longer is a typing slip, and 0 pauses until resumed. */
    static final Duration MAX_PAUSE = ReliableQueue.MAX_PAUSE;
    /** The most messages shown per section: the oldest, as browse returns them. */
    static final int MAX_ROWS = 50;

    /** The overview: every queue row under the prefix with its counts. */
    record Overview(String prefix, boolean complete, int maxQueues, List<QueueRow> queues) {
    }

    /**
     * One row of the overview.
     *
     * @param counts the engine's stats (ready, inflight, delayed, dead and the ages it knows); null on error
     * @param error  why the counts could not be read, else null
     */
    record QueueRow(String queue, String mode, String group, Map<String, Long> counts, String error) {
    }

    /**
     * One queue (group) with the oldest messages of each section.
     *
     * @param counts     the engine's stats; null when they cannot be read
     * @param sections   ready, inflight, delayed and dead: at most {@link #MAX_ROWS} messages each, oldest first;
     *                   empty when the section cannot be read
     * @param unreadable why the counts ({@code counts}) or a section (by its name) cannot be read: a key or a
     *                   message another program wrote otherwise than the component does
     */
    record QueueDetails(String queue, String mode, String group, int maxRows, Map<String, Long> counts,
            Map<String, List<MessageView>> sections, Map<String, String> unreadable) {
    }

    private final String prefix;
    private final QueueDiscovery discovery;
    private final EngineQueues queues;
    private QueueDiscovery.Found found;
    private long foundAt;

    DashboardApi(String prefix, QueueDiscovery discovery, EngineQueues queues) {
        this.prefix = prefix;
        this.discovery = discovery;
        this.queues = queues;
    }

    Overview overview() {
        QueueDiscovery.Found current = discovered();
        List<QueueRow> rows = new ArrayList<>(current.queues().size());
        RuntimeException unreachable = null;
        for (QueueRef ref : current.queues()) {
            if (unreachable != null) {
                // each further call would wait as long, up to the command timeout, for nothing
                rows.add(new QueueRow(ref.name(), ref.mode().option(), ref.group(), null,
                        "not read: Redis did not answer for an earlier queue"));
                continue;
            }
            if (ref.unreadable() != null) {
                rows.add(new QueueRow(ref.name(), ref.mode().option(), ref.group(), null,
                        "malformed: " + ref.unreadable()));
                continue;
            }
            try {
                rows.add(new QueueRow(ref.name(), ref.mode().option(), ref.group(),
                        queues.of(ref).statsWithSchedule(), null));
            } catch (RuntimeException e) {
                rows.add(new QueueRow(ref.name(), ref.mode().option(), ref.group(), null, e.getMessage()));
                if (isUnreachable(e)) {
                    unreachable = e;
                }
            }
        }
        return new Overview(prefix, current.complete(), QueueDiscovery.MAX_QUEUES, rows);
    }

    QueueDetails details(String queue, String group) {
        QueueRef ref = resolve(queue, group);
        ReliableQueue engine = queues.of(ref);
        Map<String, String> unreadable = new LinkedHashMap<>();
        Map<String, List<MessageView>> sections = new LinkedHashMap<>();
        for (QueueSection section : QueueSection.values()) {
            String name = section.name().toLowerCase(Locale.ROOT);
            sections.put(name, readable(name, unreadable, List.of(),
                    () -> engine.browse(section, MAX_ROWS).stream().map(MessageView::of).toList()));
        }
        Map<String, Long> counts = readable("counts", unreadable, null, engine::statsWithSchedule);
        return new QueueDetails(ref.name(), ref.mode().option(), ref.group(), MAX_ROWS, counts, sections,
                unreadable);
    }

    /**
     * What {@code read} returns, or, when it fails for other reasons than Redis not answering, {@code otherwise},
     * with the cause kept under {@code part}: one key or message another program wrote must not hide the rest.
     */
    private static <T> T readable(String part, Map<String, String> unreadable, T otherwise, Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            if (isUnreachable(e)) {
                throw e;
            }
            unreadable.put(part, String.valueOf(e.getMessage()));
            return otherwise;
        }
    }

    /**
     * Moves one dead letter back to ready; refused when it is no longer a dead letter, or when the engine cannot
     * find it by id (stream mode: the dead letter of an entry another program wrote, which a redrive of all moves).
     */
    void redrive(String queue, String group, String messageId) {
        QueueRef ref = resolve(queue, group);
        if (!queues.of(ref).redrive(messageId)) {
            throw new ApiException(404, "'" + messageId + "' was not redriven: it is no longer a dead letter of "
                    + queue + (ref.mode() == QueueMode.STREAM ? ", or it came from a stream entry another program "
                    + "wrote, which only 'Redrive dead' moves" : ""));
        }
    }

    /** Moves every dead letter of the row's queue (group) back to ready; returns how many moved. */
    long redriveAll(String queue, String group) {
        return queues.of(resolve(queue, group)).redrive(Long.MAX_VALUE);
    }

    /** Removes the ready, delayed and dead messages of the row's queue (group); returns how many. */
    long purge(String queue, String group) {
        return queues.of(resolve(queue, group)).purge();
    }

    /**
     * Pauses the row's queue, for every group and consumer, {@code durationMs} ms long (until resumed when 0); a
     * negative duration, or one over {@link #MAX_PAUSE}, is refused with 400.
     */
    void pause(String queue, String group, long durationMs) {
        if (durationMs < 0 || durationMs > MAX_PAUSE.toMillis()) {
            throw new ApiException(400, "durationMs must be a whole number of ms from 0 (until resumed) to "
                    + MAX_PAUSE.toMillis() + ", was " + durationMs);
        }
        queues.of(resolve(queue, group)).pause(Duration.ofMillis(durationMs));
    }

    /** Ends the pause of the row's queue; returns whether it was paused. */
    boolean resume(String queue, String group) {
        return queues.of(resolve(queue, group)).resume();
    }

    /** Redis did not answer at all, as opposed to refusing one queue's call (a key of the wrong type). */
    private static boolean isUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RedisConnectionException || t instanceof RedisCommandTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private QueueRef resolve(String queue, String group) {
        if (queue == null || queue.isEmpty()) {
            throw new ApiException(400, "queue is missing");
        }
        QueueRef ref = discovery.find(queue, group);
        if (ref == null) {
            throw new ApiException(404, "No queue '" + queue + "'" + (group == null || group.isEmpty() ? ""
                    : " with consumer group '" + group + "'") + " under the key prefix '" + prefix + "'");
        }
        if (ref.unreadable() != null) {
            throw new ApiException(409, "Queue '" + queue + "' is malformed, so the dashboard neither shows nor "
                    + "changes it: " + ref.unreadable());
        }
        return ref;
    }

    private synchronized QueueDiscovery.Found discovered() {
        long now = System.nanoTime();
        if (found == null || now - foundAt > DISCOVERY_REUSE.toNanos()) {
            found = discovery.discover();
            foundAt = now;
        }
        return found;
    }
}

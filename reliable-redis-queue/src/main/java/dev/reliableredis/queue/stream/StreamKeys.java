package dev.reliableredis.queue.stream;

import java.nio.charset.StandardCharsets;

import dev.reliableredis.queue.keys.QueueNames;
import io.lettuce.core.cluster.SlotHash;

/**
 * The Redis keys of one stream-mode queue and group. The stream and the dead-letter stream may be existing
 * keys; every other key is the component's own, {@code <keyPrefix>:{<queue>}:<part>}.
 */
final class StreamKeys {

    final byte[] stream;
    final byte[] dead;
    final byte[] ids;
    final byte[] acked;
    final byte[] delayed;
    final byte[] delayedMessages;
    final byte[] retry;
    final byte[] deadRetry;
    final byte[] claimers;
    final byte[] deadClaimers;
    final byte[] deliveries;
    final byte[] deadDeliveries;
    final byte[] paused;
    final byte[] schedule;
    final byte[] meta;
    final byte[] resumed;
    final byte[] rate;
    final byte[] limited;
    final byte[] capped;
    final byte[] freed;
    private final String group;

    StreamKeys(String keyPrefix, String queue, StreamOptions options) {
        String base = QueueNames.keyBase(keyPrefix, queue);
        stream = bytes(options.streamKey() != null ? options.streamKey() : base + "stream");
        dead = bytes(options.deadLetterKey() != null ? options.deadLetterKey() : base + "dead");
        ids = bytes(base + "ids");
        acked = bytes(base + "acked");
        delayed = bytes(base + "delayed");
        delayedMessages = bytes(base + "delayed-msg");
        paused = bytes(base + "paused");
        schedule = bytes(base + "schedule");
        meta = bytes(base + "meta");
        resumed = bytes(base + "resumed");
        group = groupBase(base, options.group());
        retry = bytes(group + "retry");
        deadRetry = bytes(group + "dead-retry");
        claimers = bytes(group + "claimers");
        deadClaimers = bytes(group + "dead-claimers");
        deliveries = bytes(group + "deliveries");
        deadDeliveries = bytes(group + "dead-deliveries");
        rate = bytes(group + "rate");
        limited = bytes(group + "limited");
        capped = bytes(group + "capped");
        freed = bytes(group + "freed");
    }

    /** The claimers and dead-claimers sets of one group of a queue (a group of any name, as XINFO GROUPS lists it). */
    static byte[][] claimerSets(String keyPrefix, String queue, String group) {
        String base = groupBase(QueueNames.keyBase(keyPrefix, queue), group);
        return new byte[][] {bytes(base + "claimers"), bytes(base + "dead-claimers")};
    }

    private static String groupBase(String queueBase, String group) {
        return queueBase + "group:" + group + ":";
    }

    /** The record of one claimant's last claim of the stream, or of the dead-letter stream (see the claim script). */
    byte[] claim(boolean deadLetters, String claimant) {
        return bytes(group + (deadLetters ? "dead-claim:" : "claim:") + claimant);
    }

    /**
     * Refuses a streamKey or deadLetterKey outside the hash slot of the queue's own keys: every script call takes
     * them together, which a Redis Cluster refuses (CROSSSLOT) on every call.
     */
    void requireOneSlot(String queue) {
        int slot = SlotHash.getSlot(ids);
        String own = new String(ids, StandardCharsets.UTF_8);
        // the queue's hash tag, or its slot group's
        String tag = own.substring(own.indexOf('{'), own.indexOf('}') + 1);
        for (byte[] key : new byte[][] {stream, dead}) {
            if (SlotHash.getSlot(key) != slot) {
                throw new IllegalArgumentException("In a Redis Cluster, streamKey and deadLetterKey must hash to the slot "
                        + "of the keys of queue '" + queue + "', " + tag + " (" + slot + "), and '"
                        + new String(key, StandardCharsets.UTF_8) + "' hashes to " + SlotHash.getSlot(key) + ": put "
                        + tag + " in its name, or name the queue after the stream key or its hash tag");
            }
        }
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}

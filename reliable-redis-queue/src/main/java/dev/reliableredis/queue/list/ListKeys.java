package dev.reliableredis.queue.list;

import java.nio.charset.StandardCharsets;

import dev.reliableredis.queue.keys.QueueNames;

/**
 * The Redis keys of one list-mode queue: {@code <keyPrefix>:{<queue>}:<part>}. The hash tag puts them all in
 * one Redis Cluster slot, so every script can touch all of them.
 */
final class ListKeys {

    final byte[] ready;
    final byte[] inflight;
    final byte[] delayed;
    final byte[] dead;
    final byte[] deadInflight;
    final byte[] messages;
    final byte[] leases;
    final byte[] failure;
    final byte[] acked;
    final byte[] seq;
    final byte[] wake;
    final byte[] claimers;
    final byte[] paused;
    final byte[] resumed;
    final byte[] capped;
    final byte[] rate;
    final byte[] limited;
    final byte[] extras;
    final byte[] prioritized;
    final byte[] cursor;
    final byte[] groups;
    final byte[] grouped;
    final byte[] schedule;
    final byte[] meta;
    private final String base;

    ListKeys(String keyPrefix, String queue) {
        base = QueueNames.keyBase(keyPrefix, queue);
        ready = key(base, "ready");
        inflight = key(base, "inflight");
        delayed = key(base, "delayed");
        dead = key(base, "dead");
        deadInflight = key(base, "dead-inflight");
        messages = key(base, "messages");
        leases = key(base, "leases");
        failure = key(base, "failure");
        acked = key(base, "acked");
        seq = key(base, "seq");
        wake = key(base, "wake");
        claimers = key(base, "claimers");
        paused = key(base, "paused");
        resumed = key(base, "resumed");
        capped = key(base, "capped");
        rate = key(base, "rate");
        limited = key(base, "limited");
        extras = key(base, "extras");
        prioritized = key(base, "prioritized");
        cursor = key(base, "cursor");
        groups = key(base, "groups");
        grouped = key(base, "grouped");
        schedule = key(base, "schedule");
        meta = key(base, "meta");
    }

    /** The record of one claimant's last claim (see the claim script). */
    byte[] claim(String claimant) {
        return key(base, "claim:" + claimant);
    }

    private static byte[] key(String base, String part) {
        return (base + part).getBytes(StandardCharsets.UTF_8);
    }
}

package dev.reliableredis.queue;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The id one claimant's next claim is made with, one per consumer thread and queue: a new one after a claim whose
 * reply the claimant got, the same one after a claim that failed. A claim can fail after Redis ran it (its reply
 * was lost to a timeout or a dropped connection); made again with its id, it returns what that run took
 * instead of leaving those messages leased to no one until their lease ends (see the claim scripts'
 * includes/claim_record). In list mode the id is also the lease token of each message the claim takes: a claim takes
 * a message once, so the pair names one delivery, and as no id is made twice a release or a reap never makes an old
 * token valid again. Used by its claimant's thread only.
 */
public final class ClaimId {

    /** Set apart from every other process's ids, at one chance in 2^63 that two draw the same. */
    private static final String PROCESS = Long.toString(new SecureRandom().nextLong() >>> 1, 36) + '.';
    /** Never the same twice in this process. */
    private static final AtomicLong NEXT = new AtomicLong();

    private String value;
    private ClaimId[] shards;

    /** This claim's id: the last one's while it was not {@link #renew renewed}. */
    public String value() {
        if (value == null) {
            value = next();
        }
        return value;
    }

    /** An id no other claim has, in any process: the process's prefix and its next number. */
    public static String next() {
        return PROCESS + Long.toString(NEXT.incrementAndGet(), 36);
    }

    /** The claim's reply reached the claimant: the next claim is a new one. */
    public void renew() {
        value = null;
    }

    /** The ids of the claims on one shard of a queue of {@code count} shards, each shard's on its own. */
    public ClaimId shard(int shard, int count) {
        if (shards == null) {
            shards = new ClaimId[count];
        }
        if (shards[shard] == null) {
            shards[shard] = new ClaimId();
        }
        return shards[shard];
    }
}

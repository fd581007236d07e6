package dev.reliableredis.queue;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The id one claimant's next claim is made with, one per consumer thread and queue: a new one after a claim whose
 * reply the claimant got, the same one after a claim that failed. A claim can fail after Redis ran it (its reply
 * was lost to a timeout or a dropped connection); made again with its id, it returns what that run took
 * instead of leaving those messages leased to no one until their lease ends (see the claim scripts'
 * includes/claim_record). Used by its claimant's thread only.
 */
public final class ClaimId {

    private String value;
    private ClaimId[] shards;

    /** This claim's id: the last one's while it was not {@link #renew renewed}. */
    public String value() {
        if (value == null) {
            value = Long.toHexString(ThreadLocalRandom.current().nextLong());
        }
        return value;
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

package dev.reliableredis.queue.sharded;

import java.util.List;

import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.Failure;
import dev.reliableredis.queue.Lease;

/**
 * A sharded queue's leases carry their shard in front of the shard's own ref, {@code <shard>#<ref>}, so that a
 * settlement goes to the shard that leased the message without any lookup. Refs are whatever the shard made them
 * (message ids, stream entry ids): only the first '#' separates, and shard numbers have none.
 */
final class ShardLeases {

    private ShardLeases() {
    }

    static List<Delivery> tag(int shard, List<Delivery> deliveries) {
        return deliveries.stream().map(d -> d.withLease(tag(shard, d.lease()))).toList();
    }

    static List<List<Delivery>> tagParts(int shard, List<List<Delivery>> parts) {
        return parts.stream().map(part -> tag(shard, part)).toList();
    }

    static Lease tag(int shard, Lease lease) {
        return new Lease(lease.messageId(), shard + "#" + lease.ref(), lease.token());
    }

    static int shardOf(Lease lease) {
        int hash = lease.ref().indexOf('#');
        if (hash < 1) {
            throw new IllegalArgumentException("Lease of message '" + lease.messageId()
                    + "' was not given by a sharded queue: its ref '" + lease.ref() + "' names no shard");
        }
        return Integer.parseInt(lease.ref().substring(0, hash));
    }

    /** The lease as its shard gave it. */
    static Lease untag(Lease lease) {
        return new Lease(lease.messageId(), lease.ref().substring(lease.ref().indexOf('#') + 1), lease.token());
    }

    static int shardOf(Failure failure) {
        return shardOf(failure.lease());
    }

    static Failure untag(Failure failure) {
        return new Failure(untag(failure.lease()), failure.reason(), failure.retryAfter());
    }
}

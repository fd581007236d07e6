package dev.reliableredis.queue.keys;

import java.util.Optional;

/**
 * One Redis key of a queue, read back from its name: {@code <keyPrefix>:{<queue>}:<part>} for shard 0 (the queue's
 * own keys) and {@code <keyPrefix>:{<queue>#<shard>}:<part>} for shard 1 and on, as {@link QueueNames#keyBase} and
 * {@link QueueNames#shard} make them. The one parser of the layout, for whoever finds queues by their keys; the keys
 * of a queue in a slot group ({@link QueueNames#inSlotGroup}) are not read.
 *
 * @param queue the queue's name, without a shard's suffix
 * @param shard the shard the key belongs to, 0 for an unsharded queue
 * @param part  what follows the hash tag, such as {@code ready} or {@code group:camel:retry}
 */
public record QueueKey(String queue, int shard, String part) {

    /** The key read as a queue's key under the prefix; empty when it is not one (another program's key). */
    public static Optional<QueueKey> parse(String keyPrefix, String key) {
        String start = keyPrefix + ":{";
        int close = key.indexOf("}:", start.length());
        // a key of a queue in a slot group, <keyPrefix>:{<slotGroup>}:{<queue>}:<part>, is not read as one
        if (!key.startsWith(start) || close < 0 || key.startsWith("{", close + 2)) {
            return Optional.empty();
        }
        String tag = key.substring(start.length(), close);
        int hash = tag.lastIndexOf('#');
        String queue = hash < 0 ? tag : tag.substring(0, hash);
        int shard = 0;
        if (hash >= 0) {
            String index = tag.substring(hash + 1);
            if (!index.matches("[1-9][0-9]{0,3}")) {
                return Optional.empty();
            }
            shard = Integer.parseInt(index);
        }
        try {
            QueueNames.validate(queue);
        } catch (IllegalArgumentException notAQueue) {
            return Optional.empty();
        }
        return Optional.of(new QueueKey(queue, shard, key.substring(close + 2)));
    }
}

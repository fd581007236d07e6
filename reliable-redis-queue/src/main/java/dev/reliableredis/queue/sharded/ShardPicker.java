package dev.reliableredis.queue.sharded;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.internal.HeaderCodec;

/**
 * Which shard a message goes to: CRC-32 of the UTF-8 bytes of its shard key, or of its id when it has none, modulo
 * the number of shards. A published, stable function, so that every producer, in any language, picks the same shard
 * for the same key; and the id's shard is where its idempotency record is, so an id is a no-op on its own shard.
 */
public final class ShardPicker {

    private ShardPicker() {
    }

    public static int shardOf(NewMessage message, int shards) {
        return shardOf(message.shardKey() != null ? message.shardKey() : message.id(), shards);
    }

    /**
     * The shard of a stored message, from its headers JSON ({@link NewMessage#SHARD_KEY_HEADER} keeps its shard key)
     * and its id: where a send with this many shards puts it. Headers that cannot be read (written by something
     * else) count as none.
     */
    public static int shardOfStored(String headersJson, String id, int shards) {
        Object key;
        try {
            key = HeaderCodec.decode(headersJson).get(NewMessage.SHARD_KEY_HEADER);
        } catch (IllegalArgumentException unreadable) {
            key = null;
        }
        return shardOf(key instanceof String k ? k : id, shards);
    }

    public static int shardOf(String key, int shards) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }
}

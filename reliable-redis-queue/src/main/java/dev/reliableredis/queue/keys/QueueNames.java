package dev.reliableredis.queue.keys;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks queue names: they become part of Redis keys and of the cluster hash tag. */
public final class QueueNames {

    public static final int MAX_LENGTH = 200;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:-]+");
    /** What a shard's name adds to its queue's name; '#' is not allowed in queue names, so no queue is named so. */
    private static final Pattern SHARD_SUFFIX = Pattern.compile("#[1-9][0-9]{0,3}$");
    /** A key prefix made by {@link #inSlotGroup}: the key prefix, then the slot group's hash tag. */
    private static final Pattern SLOT_GROUP_TAG = Pattern.compile("(.*):\\{[A-Za-z0-9._:-]+}");

    private QueueNames() {
    }

    /** Returns the name, or throws naming the first character that is not allowed. */
    public static String validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Queue name must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Queue name is " + name.length() + " characters long; at most "
                    + MAX_LENGTH + " are allowed (queue name starts with '" + name.substring(0, 20) + "')");
        }
        if (!ALLOWED.matcher(name).matches()) {
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!ALLOWED.matcher(String.valueOf(c)).matches()) {
                    throw new IllegalArgumentException("Queue name '" + name + "' contains the character '" + c
                            + "' at position " + i + "; allowed are letters, digits and . _ : -");
                }
            }
        }
        return name;
    }

    /**
     * The start of every key of a queue, {@code <keyPrefix>:{<queue>}:}: the hash tag puts all of them in one Redis
     * Cluster slot, so every script can touch all of them. A key prefix made by {@link #inSlotGroup} gives
     * {@code <keyPrefix>:{<slotGroup>}:{<queue>}:}: Redis hashes only the first tag, so the queues of a slot group share
     * its slot, and the second keeps the queue's name readable.
     */
    public static String keyBase(String keyPrefix, String queue) {
        validate(SHARD_SUFFIX.matcher(queue == null ? "" : queue).replaceFirst(""));
        return validateQueueKeyPrefix(keyPrefix) + ":{" + queue + "}:";
    }

    /** A key prefix as {@link #keyBase} takes it: a keyPrefix, or one made by {@link #inSlotGroup}. */
    public static String validateQueueKeyPrefix(String keyPrefix) {
        Matcher tagged = SLOT_GROUP_TAG.matcher(keyPrefix == null ? "" : keyPrefix);
        validatePrefix(tagged.matches() ? tagged.group(1) : keyPrefix);
        return keyPrefix;
    }

    /**
     * The key prefix of the queues of a slot group, {@code <keyPrefix>:{<slotGroup>}}, for {@link #keyBase}; the key
     * prefix itself when there is no slot group (null or empty). Throws naming the slot group when it is not a
     * valid name.
     */
    public static String inSlotGroup(String keyPrefix, String slotGroup) {
        if (slotGroup == null || slotGroup.isEmpty()) {
            return keyPrefix;
        }
        if (slotGroup.length() > MAX_LENGTH || !ALLOWED.matcher(slotGroup).matches()) {
            throw new IllegalArgumentException("slotGroup '" + slotGroup + "' is not allowed; use at most " + MAX_LENGTH
                    + " letters, digits and . _ : -");
        }
        return validatePrefix(keyPrefix) + ":{" + slotGroup + "}";
    }

    /**
     * The inbox of a requester of the queue, {@code <keyPrefix>:{<queue>}:reply:<inbox>}: a shard's consumer replies
     * into the key of the queue it belongs to (shard 0's slot), where the requester waits.
     */
    public static String replyKey(String keyPrefix, String queue, String inbox) {
        return keyBase(keyPrefix, queueOfShard(queue)) + "reply:" + inbox;
    }

    /**
     * The name of shard {@code index} of a sharded queue: the queue's own name for shard 0, so that a queue given
     * shards keeps its messages in shard 0, and {@code <queue>#<index>} for the others. Each name is a hash tag of
     * its own, so that each shard has its own Redis Cluster slot.
     */
    public static String shard(String queue, int index) {
        return index == 0 ? queue : queue + "#" + index;
    }

    /** The name of the queue a shard of it belongs to: the name itself for shard 0 and for an unsharded queue. */
    public static String queueOfShard(String name) {
        return SHARD_SUFFIX.matcher(name).replaceFirst("");
    }

    /** Key prefixes follow the same rules, so that a key cannot break out of its hash tag. */
    public static String validatePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty() || !ALLOWED.matcher(prefix).matches()) {
            throw new IllegalArgumentException("keyPrefix '" + prefix
                    + "' is not allowed; use letters, digits and . _ : - only");
        }
        return prefix;
    }
}

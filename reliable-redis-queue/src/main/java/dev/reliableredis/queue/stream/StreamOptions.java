package dev.reliableredis.queue.stream;

import java.util.Objects;

import dev.reliableredis.queue.keys.QueueNames;

/**
 * What stream mode needs beyond the queue settings.
 *
 * @param streamKey      an existing stream to use as the queue's stream, or null for {@code <prefix>:{<queue>}:stream}
 * @param deadLetterKey  an existing stream for the dead letters, or null for {@code <prefix>:{<queue>}:dead}
 * @param group          the consumer group
 * @param groupStartId   where a group the component creates starts: "0" (the whole stream) or "$" (new entries)
 * @param consumerName   this consumer's name inside the group
 * @param maxLen         approximate MAXLEN on XADD, 0 for none
 * @param deleteAfterAck delete an entry once every group of the stream has acked it
 */
public record StreamOptions(String streamKey, String deadLetterKey, String group, String groupStartId,
        String consumerName, long maxLen, boolean deleteAfterAck) {

    public StreamOptions {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(consumerName, "consumerName");
        checkName("group", group);
        checkName("consumerName", consumerName);
        if (!"0".equals(groupStartId) && !"$".equals(groupStartId)) {
            throw new IllegalArgumentException("groupStartId must be '0' or '$', was '" + groupStartId + "'");
        }
        if (maxLen < 0) {
            throw new IllegalArgumentException("maxLen must be 0 (off) or more, was " + maxLen);
        }
        if (streamKey != null && streamKey.isEmpty() || deadLetterKey != null && deadLetterKey.isEmpty()) {
            throw new IllegalArgumentException("streamKey and deadLetterKey must not be empty when set");
        }
        if (streamKey != null && streamKey.equals(deadLetterKey)) {
            throw new IllegalArgumentException("streamKey and deadLetterKey must differ, both were '" + streamKey + "'");
        }
    }

    private static void checkName(String option, String value) {
        try {
            QueueNames.validate(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " '" + value + "' is not allowed: letters, digits and . _ : - "
                                               + "only, at most " + QueueNames.MAX_LENGTH + " characters");
        }
    }
}

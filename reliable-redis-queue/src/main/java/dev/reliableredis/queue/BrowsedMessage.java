package dev.reliableredis.queue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message read without claiming or changing it.
 *
 * <p>A message that something else stored malformed (list mode: a record whose length or time is not a number, or
 * whose length runs past its end; stream mode: an expires field that is not a number, or a delayed message's value
 * that is not what enqueue packs) is shown, not skipped: its failure says what is wrong ("malformed record: headers
 * length 'x' is not a number"), the failure a claim (or for a delayed message the reaper) dead-letters it with.
 * Where no part of it can be trusted (a list record, a delayed message's value), its body is the whole value as
 * stored, its headers are empty and its age is -1.
 *
 * @param messageId  the message id (the one delivered as CamelReliableRedisMessageId)
 * @param section    where it is
 * @param body       the body bytes as enqueued
 * @param fields     stream mode, an entry written by another program: its field map (which is the body); else null
 * @param headers    the travelling headers decoded as for deliveries (HeaderCodec); empty map when none or unreadable.
 *                   A request's {@link ReplyTo#HEADER} is left out
 * @param age        ms since it was enqueued (Redis server time); -1 when unknown (malformed)
 * @param deliveries how many times it has been delivered so far
 * @param leaseAge   INFLIGHT: ms since its lease was taken or last extended; else -1
 * @param dueIn      DELAYED: ms until it becomes ready again (0 when due); else -1
 * @param failure    the last failure when one is recorded (DEAD always when known; DELAYED retries too where the
 *                   layout keeps it), or what is wrong with a malformed record; else null
 * @param owner      stream mode INFLIGHT: the consumer that holds it; else null
 */
public record BrowsedMessage(String messageId, QueueSection section, byte[] body, Map<String, String> fields,
        Map<String, Object> headers, long age, int deliveries, long leaseAge, long dueIn, String failure,
        String owner) {

    public BrowsedMessage {
        // the requester's inbox and correlation id: enough to answer in its place, so never shown
        if (headers.containsKey(ReplyTo.HEADER)) {
            headers = new LinkedHashMap<>(headers);
            headers.remove(ReplyTo.HEADER);
        }
    }
}

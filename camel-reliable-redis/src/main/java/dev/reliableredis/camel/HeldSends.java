package dev.reliableredis.camel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.reliableredis.queue.HandOff;
import dev.reliableredis.queue.NewMessage;
import dev.reliableredis.queue.ReliableQueue;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;

/**
 * What the exchange of one delivery sent through producers with {@code exactlyOnce=true}: held until the delivery
 * settles, then enqueued by its ack in the same script call ({@link ReliableQueue#handOffAsync}), or dropped when
 * it is retried or dead-lettered. Kept as an exchange property, so that the copies Camel makes of the exchange (a
 * split's parts) hold their sends here too. Once the delivery settles, nothing more is held: a send that comes
 * later (from an exchange handed on to another thread) is enqueued at once instead.
 */
final class HeldSends {

    /** The exchange property; internal, not part of the component's API. */
    static final String PROPERTY = "CamelReliableRedisHeldSends";
    /** The most messages one delivery hands off to one queue: one enqueue call's. */
    static final int MAX_PER_QUEUE = 1000;

    private final ReliableQueue consumed;
    private final String consumedSlotGroup;
    private final String messageId;
    /**
     * Guarded by this, as is everything below: a split's parts may send from several threads. Made by the first send
     * that needs them: every delivery has a HeldSends, and most routes send nothing with exactlyOnce.
     */
    private Map<ReliableQueue, List<NewMessage>> held;
    private Map<String, Integer> sends;
    private boolean settled;

    /** @param consumedSlotGroup the slotGroup of the consumed queue's endpoint, null for none */
    HeldSends(ReliableQueue consumed, String consumedSlotGroup, String messageId) {
        this.consumed = consumed;
        this.consumedSlotGroup = consumedSlotGroup;
        this.messageId = messageId;
    }

    /** The exchange's, or null when it did not come from a reliable-redis consumer. */
    static HeldSends of(Exchange exchange) {
        return exchange.getProperty(PROPERTY, HeldSends.class);
    }

    /**
     * The id of the exchange's next send to the queue: {@code <message id>/<queue>/<n>}, n counting the exchange's
     * sends to that queue; in a split's part, the part's CamelSplitIndex, then {@code <index>.<k>} for its k-th
     * further send. The same route run again derives the same ids, so a send is enqueued once. Camel's redelivery
     * of a failed send asks for none: it reuses the failed send's ids ({@link UnsentIds}).
     */
    synchronized String nextId(Exchange exchange, String queue) {
        Integer part = exchange.getProperty(ExchangePropertyKey.SPLIT_INDEX, Integer.class);
        if (sends == null) {
            sends = new HashMap<>();
        }
        int k = sends.merge((part == null ? "" : part + "/") + queue, 1, Integer::sum) - 1;
        String n = part == null ? String.valueOf(k) : k == 0 ? String.valueOf(part) : part + "." + k;
        return messageId + "/" + queue + "/" + n;
    }

    /** Whether sends to the target can be held: it is on the same Redis (and slot) as the consumed queue. */
    boolean canHold(ReliableQueue target) {
        return consumed.canHandOffTo(target);
    }

    /**
     * Refuses a target that cannot be held and names a slot group the consumed queue is not in, naming both queues:
     * a slot group is there to share the consumed queue's slot, and a silent fallback would hide that it does not.
     */
    void requireSameSlotGroup(ReliableQueue target, String targetSlotGroup) {
        if (targetSlotGroup != null && !targetSlotGroup.isEmpty() && !targetSlotGroup.equals(consumedSlotGroup)) {
            throw new IllegalStateException("exactlyOnce: queue '" + target.name() + "' of slotGroup '"
                    + targetSlotGroup + "' cannot be handed off to from queue '" + consumed.name() + "' of "
                    + (consumedSlotGroup == null ? "no slotGroup" : "slotGroup '" + consumedSlotGroup + "'")
                    + ": on a Redis Cluster they are in different slots; set slotGroup=" + targetSlotGroup
                    + " on the endpoints of queue '" + consumed.name() + "' too, or no slotGroup on this one to send "
                    + "at once under the derived ids");
        }
    }

    /**
     * Holds the messages for the target; false when the delivery has settled already, and they are not held.
     * Refuses more than {@link #MAX_PER_QUEUE} for one queue, naming it.
     */
    synchronized boolean hold(ReliableQueue target, List<NewMessage> messages) {
        if (settled) {
            return false;
        }
        if (held == null) {
            held = new LinkedHashMap<>();
        }
        List<NewMessage> queued = held.computeIfAbsent(target, t -> new ArrayList<>());
        if (queued.size() + messages.size() > MAX_PER_QUEUE) {
            throw new IllegalArgumentException("Message '" + messageId + "' of queue '" + consumed.name()
                    + "' would hand off more than " + MAX_PER_QUEUE + " messages to queue '" + target.name()
                    + "' (exactlyOnce=true)");
        }
        queued.addAll(messages);
        return true;
    }

    /** The delivery settles: what was held, to enqueue with its ack; nothing is held from now on. */
    synchronized List<HandOff> settle() {
        settled = true;
        if (held == null) {
            return List.of();
        }
        List<HandOff> handOffs = new ArrayList<>(held.size());
        held.forEach((target, messages) -> handOffs.add(new HandOff(target, messages)));
        held = null;
        return handOffs;
    }
}

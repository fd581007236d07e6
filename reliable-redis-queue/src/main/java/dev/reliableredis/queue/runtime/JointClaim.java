package dev.reliableredis.queue.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import dev.reliableredis.queue.Claimant;
import dev.reliableredis.queue.Claimer;
import dev.reliableredis.queue.Delivery;
import dev.reliableredis.queue.ReliableQueue;
import dev.reliableredis.queue.redis.CallBackoff;

/**
 * The idle threads of one consumer claim together. An idle thread that finds a wait free (one per queue, or one per
 * shard) becomes its waiter: it waits for messages and claims in one script call for itself and the idle threads
 * that no other wait has taken (with several waits free, an even share of them, so that each wait has threads to
 * claim for), then frees the wait, so that another idle thread takes it over before this one runs its own part.
 * Each thread gets its part as a batch of its own; a thread whose part is empty is idle again. One claim is for at
 * most as many threads as keep it within {@link ReliableQueue#MAX_BATCH}; the others wait for the next.
 *
 * <p>The first claim waits until every thread is idle, so that a backlog queued before the consumer started is
 * shared by all of them from the first claim on. A claim that fails is retried with backoff by the same waiter,
 * which keeps its wait meanwhile; the threads it claimed for are idle again.
 */
public final class JointClaim {

    /** What the claims tell. */
    public interface Events {
        /** A claim landed, with this many messages for all its threads (0: there were none). */
        void claimSucceeded(int claimed);

        void claimFailed(RuntimeException cause);
    }

    private final List<Claimer> waits;
    private final List<Claimant> threads;
    private final int maxPerThread;
    private final int maxThreadsPerClaim;
    private final Duration pollTimeout;
    private final Events events;
    private final CountDownLatch stopping = new CountDownLatch(1);

    /**
     * Guards what follows; each thread waits on a condition of its own, so that a claim wakes only the threads it
     * handed a part to and one idle thread to take the wait over, not every idle thread.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition[] turn;
    /** The idle threads that no claim is under way for, in the order they became idle. */
    private final Deque<Integer> idle = new ArrayDeque<>();
    private final boolean[] waitTaken;
    private final int[] failures;
    private final boolean[] inClaim;
    /** Threads interrupted while a claim was under way for them, which wait for it to end without their part. */
    private final boolean[] interrupted;
    private final List<List<Delivery>> handed;
    private boolean claimedOnce;
    private boolean stopped;

    /**
     * @param waits   one claimer per place the consumer waits (its queue, or each shard), each used by one thread
     *                at a time
     * @param threads the consumer's threads as claimants, by thread index
     */
    public JointClaim(List<Claimer> waits, List<Claimant> threads, int maxPerThread, Duration pollTimeout,
            Events events) {
        this.waits = List.copyOf(waits);
        this.threads = List.copyOf(threads);
        this.maxPerThread = maxPerThread;
        this.maxThreadsPerClaim = Math.max(1, ReliableQueue.MAX_BATCH / maxPerThread);
        this.pollTimeout = pollTimeout;
        this.events = events;
        this.waitTaken = new boolean[waits.size()];
        this.failures = new int[waits.size()];
        this.inClaim = new boolean[threads.size()];
        this.interrupted = new boolean[threads.size()];
        this.handed = new ArrayList<>(threads.size());
        this.turn = new Condition[threads.size()];
        for (int i = 0; i < threads.size(); i++) {
            handed.add(null);
            turn[i] = lock.newCondition();
        }
    }

    /**
     * The claims of a consumer of the queue named {@code consumer} with {@code threads} threads: a wait per shard (at
     * most one per thread), each with a claimant of its own whose id names the record of its last claim, and made
     * with {@code waitAs} (a check before each claim, say), and the threads as claimants.
     */
    public static JointClaim forConsumer(ReliableQueue queue, String consumer, int threads, int maxPerThread,
            Duration pollTimeout, UnaryOperator<Claimer> waitAs, Events events) {
        List<Claimer> waits = new ArrayList<>();
        for (int w = 0; w < Math.min(threads, queue.shardCount()); w++) {
            waits.add(waitAs.apply(queue.newClaimer(Claimant.waiting(consumer, w, pollTimeout))));
        }
        List<Claimant> claimants = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            claimants.add(Claimant.thread(consumer, i, pollTimeout));
        }
        return new JointClaim(waits, claimants, maxPerThread, pollTimeout, events);
    }

    /**
     * The next batch of thread {@code thread}: what a claim got for it, possibly nothing (no message within the poll
     * timeout, a failed claim, a stop). Returns at once, empty, once the consumer stops, unless a claim is under way
     * for this thread: then its part, which the stopping thread gives back.
     */
    public List<Delivery> next(int thread) throws InterruptedException {
        int wait;
        List<Integer> party;
        lock.lock();
        try {
            idle.addLast(thread);
            while (true) {
                List<Delivery> part = handed.get(thread);
                if (part != null) {
                    handed.set(thread, null);
                    return part;
                }
                if (!inClaim[thread]) {
                    if (stopped) {
                        idle.remove(thread);
                        return List.of();
                    }
                    wait = freeWait();
                    if (wait >= 0 && (claimedOnce || idle.size() == threads.size())) {
                        break;
                    }
                }
                awaitTurn(thread);
            }
            party = takeParty(thread, wait);
        } finally {
            lock.unlock();
        }
        return claim(wait, party);
    }

    /**
     * Waits for a part, a free wait or the stop. Interrupted while a claim is under way for it, the thread waits on
     * for its part (the claim ends within its wait and command timeout), so that no part is handed to no one.
     */
    private void awaitTurn(int thread) throws InterruptedException {
        try {
            turn[thread].await();
        } catch (InterruptedException e) {
            if (inClaim[thread]) {
                interrupted[thread] = true;
                while (inClaim[thread]) {
                    turn[thread].awaitUninterruptibly();
                }
                interrupted[thread] = false;
                if (handed.get(thread) != null) {
                    // the part goes back to the loop, which gives it back as the consumer stops
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            idle.remove(thread);
            throw e;
        }
    }

    /** Wakes the idle thread that has waited longest, to take a wait that is free. */
    private void wakeNextWaiter() {
        Integer next = idle.peekFirst();
        if (next != null) {
            turn[next].signal();
        }
    }

    /** The first wait no thread has taken; -1 when all are taken. */
    private int freeWait() {
        for (int w = 0; w < waitTaken.length; w++) {
            if (!waitTaken[w]) {
                return w;
            }
        }
        return -1;
    }

    /** The waiter and the idle threads it claims for, taken out of the idle ones; called holding the lock. */
    private List<Integer> takeParty(int waiter, int wait) {
        int freeWaits = 0;
        for (boolean taken : waitTaken) {
            freeWaits += taken ? 0 : 1;
        }
        waitTaken[wait] = true;
        claimedOnce = true;
        idle.remove(waiter);
        int size = Math.min(maxThreadsPerClaim, 1 + idle.size() / freeWaits);
        List<Integer> party = new ArrayList<>(size);
        party.add(waiter);
        while (party.size() < size) {
            party.add(idle.pollFirst());
        }
        party.forEach(t -> inClaim[t] = true);
        if (freeWaits > 1) {
            wakeNextWaiter();
        }
        return party;
    }

    private List<Delivery> claim(int wait, List<Integer> party) throws InterruptedException {
        List<List<Delivery>> parts = null;
        try {
            parts = waits.get(wait).claim(party.stream().map(threads::get).toList(), maxPerThread, pollTimeout);
            failures[wait] = 0;
            events.claimSucceeded(parts.stream().mapToInt(List::size).sum());
        } catch (RuntimeException e) {
            if (!isStopped()) {
                events.claimFailed(e);
                // the wait stays taken through the backoff, so that no other thread claims at once in its place
                stopping.await(CallBackoff.after(++failures[wait]).toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            hand(wait, party, parts);
        }
        return parts == null ? List.of() : parts.get(0);
    }

    /**
     * Frees the wait, and hands each thread of the party its part, or makes it idle again without one; wakes the
     * threads with a part, those that wait for the claim only to stop, and one idle thread to take the wait over.
     */
    private void hand(int wait, List<Integer> party, List<List<Delivery>> parts) {
        lock.lock();
        try {
            waitTaken[wait] = false;
            for (int i = 0; i < party.size(); i++) {
                int thread = party.get(i);
                inClaim[thread] = false;
                if (i > 0) {
                    List<Delivery> part = parts == null ? List.of() : parts.get(i);
                    if (part.isEmpty()) {
                        idle.addLast(thread);
                    } else {
                        handed.set(thread, part);
                    }
                    if (!part.isEmpty() || stopped || interrupted[thread]) {
                        turn[thread].signal();
                    }
                }
            }
            wakeNextWaiter();
        } finally {
            lock.unlock();
        }
    }

    private boolean isStopped() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the waits: no claim starts any more, and the one under way ends as soon as its claimer can. */
    public void stop() {
        lock.lock();
        try {
            stopped = true;
            for (Condition each : turn) {
                each.signal();
            }
        } finally {
            lock.unlock();
        }
        stopping.countDown();
        waits.forEach(Claimer::wakeUp);
    }

    /** Closes the claimers, cutting a claim that the stop did not end in time. */
    public void close() {
        waits.forEach(Claimer::close);
    }
}

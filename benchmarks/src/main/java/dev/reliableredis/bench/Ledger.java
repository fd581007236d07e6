package dev.reliableredis.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/** Counts the receipts of every index: lost and duplicated messages are read off it, outside the contender. */
public final class Ledger {

    private final AtomicIntegerArray receipts;
    private final AtomicInteger distinct = new AtomicInteger();
    private final long[] sentAtNanos;
    private volatile Thread waiter;
    private volatile int awaited = -1;
    private final Latencies latencies = new Latencies();

    public Ledger(int size) {
        receipts = new AtomicIntegerArray(size);
        sentAtNanos = new long[size];
    }

    /** A contender's consumer calls this when the message's processing starts. */
    public void received(int index) {
        long now = System.nanoTime();
        if (receipts.getAndIncrement(index) == 0) {
            distinct.incrementAndGet();
        }
        long sentAt = sentAtNanos[index];
        if (sentAt != 0) {
            latencies.record(now - sentAt);
        }
        if (index == awaited) {
            LockSupport.unpark(waiter);
        }
    }

    /** Times the message from now (or from when it was due to be sent) to the start of its processing. */
    public void sending(int index, long atNanos) {
        sentAtNanos[index] = atNanos;
    }

    /** Waits until the index was received; for one message at a time. */
    public void awaitReceipt(int index, long timeoutNanos) {
        waiter = Thread.currentThread();
        awaited = index;
        long deadline = System.nanoTime() + timeoutNanos;
        while (receipts.get(index) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Message " + index + " did not arrive in time");
            }
            LockSupport.parkNanos(1_000_000);
        }
        awaited = -1;
    }

    public int distinct() {
        return distinct.get();
    }

    public long lost(int from, int to) {
        long lost = 0;
        for (int i = from; i < to; i++) {
            if (receipts.get(i) == 0) {
                lost++;
            }
        }
        return lost;
    }

    public long duplicates(int from, int to) {
        long duplicates = 0;
        for (int i = from; i < to; i++) {
            duplicates += Math.max(0, receipts.get(i) - 1);
        }
        return duplicates;
    }

    public Latencies latencies() {
        return latencies;
    }
}

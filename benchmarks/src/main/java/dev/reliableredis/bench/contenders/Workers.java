package dev.reliableredis.bench.contenders;

import java.util.ArrayList;
import java.util.List;

/** Consumer threads of a contender that has no consumer of its own: each runs a loop until stopped. */
final class Workers {

    interface Loop {
        /** One turn of the given worker: claims, processes and acks what it can; waits briefly when there is nothing. */
        void turn(int worker) throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    void start(String name, int count, Loop loop) {
        for (int i = 0; i < count; i++) {
            int worker = i;
            Thread thread = new Thread(() -> {
                while (running) {
                    try {
                        loop.turn(worker);
                    } catch (Exception e) {
                        if (running) {
                            e.printStackTrace();
                        }
                    }
                }
            }, name + "-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
    }

    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(5_000);
        }
    }
}

package dev.reliableredis.soak;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

import dev.reliableredis.testsupport.RedisProcess;
import io.lettuce.core.KillArgs;

/** Injects the faults of a soak run on a schedule and remembers when each happened. */
final class FaultInjector {

    /** A fault and the time span it lasted, epoch ms. */
    record Injected(Fault fault, long startedAt, long endedAt) {
    }

    private final RedisProcess redis;
    private final List<ConsumerJvm> consumers;
    private final long visibilityMs;
    private final List<Injected> injected = new CopyOnWriteArrayList<>();

    FaultInjector(RedisProcess redis, List<ConsumerJvm> consumers, long visibilityMs) {
        this.redis = redis;
        this.consumers = consumers;
        this.visibilityMs = visibilityMs;
    }

    List<Injected> injected() {
        return injected;
    }

    /** Injects the next fault in the rotation. */
    void injectNext() throws Exception {
        Fault fault = Fault.values()[injected.size() % Fault.values().length];
        long started = System.currentTimeMillis();
        switch (fault) {
            case CONSUMER_KILL -> {
                ConsumerJvm victim = consumers.get(ThreadLocalRandom.current().nextInt(consumers.size()));
                victim.kill();
                victim.start();
            }
            case REDIS_KILL -> {
                redis.kill();
                redis.launch();
            }
            case CLIENT_KILL -> redis.commands().clientKill(KillArgs.Builder.typeNormal());
            case SCRIPT_FLUSH -> redis.commands().scriptFlush();
            case REDIS_PAUSE -> {
                redis.pause();
                try {
                    Thread.sleep(visibilityMs + 1_000);
                } finally {
                    redis.resume();
                }
            }
        }
        injected.add(new Injected(fault, started, System.currentTimeMillis()));
    }

    boolean everyKindInjected() {
        return injected.size() >= Fault.values().length;
    }
}

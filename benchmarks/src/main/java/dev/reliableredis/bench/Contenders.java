package dev.reliableredis.bench;

import dev.reliableredis.bench.contenders.BatchedScripts;
import dev.reliableredis.bench.contenders.CamelRabbit;
import dev.reliableredis.bench.contenders.ComponentRoute;
import dev.reliableredis.bench.contenders.RawList;
import dev.reliableredis.bench.contenders.RawStreams;
import dev.reliableredis.bench.contenders.SeedRecipe;

/** The contenders that run in a JVM (BullMQ runs in Node, see {@link NodeRun}). */
public final class Contenders {

    private Contenders() {
    }

    public static Contender create(Spec spec) throws Exception {
        return switch (spec.contender()) {
            case "ceiling" -> new RawList(spec);
            case "component" -> new ComponentRoute(spec);
            case "seed" -> new SeedRecipe(spec);
            case "batched" -> new BatchedScripts(spec);
            case "streams" -> new RawStreams(spec);
            case "rabbitmq" -> new CamelRabbit(spec);
            default -> throw new IllegalArgumentException("Unknown contender '" + spec.contender() + "'");
        };
    }
}

package dev.reliableredis.bench.contenders;

import dev.reliableredis.bench.Spec;

/** The seed recipe's scripts, batched: a claim takes up to perPoll messages, one ack call settles them all. */
public final class BatchedScripts extends SeedRecipe {

    public BatchedScripts(Spec spec) {
        super(spec, spec.perPoll());
    }
}

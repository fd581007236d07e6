package dev.reliableredis.queue;

import java.util.List;
import java.util.stream.IntStream;

import dev.reliableredis.queue.internal.ScriptSettings;
import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;

import static dev.reliableredis.queue.internal.RedisBytes.text;
import static org.assertj.core.api.Assertions.assertThat;

/** A script reads each of its packed settings by name, whatever their order and size, as Redis's cmsgpack reads. */
class ScriptSettingsTest extends QueueTestBase {

    private static final String READ = """
            local s = cmsgpack.unpack(ARGV[1])
            return {s.visibility, s.small, s.negative, tostring(s.multiplier), s.mode, #s.long, s.field16}""";

    @Test
    void eachSettingIsReadByItsName() {
        ScriptSettings settings = ScriptSettings.of().with("mode", "strict").with("multiplier", 2.5)
                .with("visibility", 30_000).with("negative", -5).with("long", "x".repeat(300)).with("small", 7);
        IntStream.rangeClosed(7, 16).forEach(n -> settings.with("field" + n, n));

        List<Object> read = RedisGateway.await(gateway.asyncCommands().<List<Object>>eval(READ,
                ScriptOutputType.MULTI, new byte[0][], settings.pack()).toCompletableFuture());

        assertThat(read.get(0)).isEqualTo(30_000L);
        assertThat(read.get(1)).isEqualTo(7L);
        assertThat(read.get(2)).isEqualTo(-5L);
        assertThat(text(read.get(3))).isEqualTo("2.5");
        assertThat(text(read.get(4))).isEqualTo("strict");
        assertThat(read.get(5)).as("a string of more than 255 bytes").isEqualTo(300L);
        assertThat(read.get(6)).as("the 16th field: a map of more than 15").isEqualTo(16L);
    }
}

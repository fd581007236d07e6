package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/** The consumer groups of a stream, from XINFO GROUPS. */
final class StreamGroups {

    private StreamGroups() {
    }

    /** The group names; XINFO GROUPS answers one flat list of name/value pairs per group. */
    static List<String> of(RedisClusterCommands<byte[], byte[]> commands, byte[] stream) {
        List<String> names = new ArrayList<>();
        for (Object group : commands.xinfoGroups(stream)) {
            if (group instanceof List<?> info) {
                for (int i = 0; i + 1 < info.size(); i += 2) {
                    if ("name".equals(text(info.get(i)))) {
                        names.add(text(info.get(i + 1)));
                    }
                }
            }
        }
        return names;
    }

    private static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
    }
}

package dev.reliableredis.queue.internal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * A command or key that Redis's ACL refused the user. Redis words it by version and by where the call was made: a
 * command the component sends gets {@code NOPERM ... 'evalsha' command} or {@code NOPERM ... one of the keys}; a
 * {@code redis.call} inside a script gets {@code ERR ACL failure in script: ... 'lpop' command} from Redis 7.2 on,
 * but before that only {@code ERR The user executing the script can't run this command or subcommand ... on
 * user_script:12} (after an at sign), which names neither the command nor the key. So a refused script call is
 * explained with the line of the script that Redis names, and with the keys the call was given.
 */
public final class AclRefusal {

    private static final Pattern SCRIPT_LINE = Pattern.compile("@user_script:\\s*(\\d+)");

    private AclRefusal() {
    }

    /** Whether Redis's error message is an ACL refusal, in any of the words Redis 6.2 to 8 use. */
    public static boolean is(String redisError) {
        return redisError != null && (redisError.contains("NOPERM") || redisError.contains("ACL failure")
                                      || redisError.contains("The user executing the script can't"));
    }

    /**
     * The error of a script call, with what was refused added when it was an ACL refusal: the script, the line of its
     * source that Redis names (the expanded source, as Redis ran it) and the call's keys.
     */
    static Throwable explain(Throwable error, String script, byte[] source, byte[][] keys) {
        if (!(error instanceof RedisCommandExecutionException) || !is(error.getMessage())) {
            return error;
        }
        StringBuilder explained = new StringBuilder(error.getMessage()).append(" (refused to this Redis user in ")
                .append(script);
        Matcher line = SCRIPT_LINE.matcher(error.getMessage());
        if (line.find()) {
            explained.append(", line ").append(line.group(1)).append(": ")
                    .append(sourceLine(source, Integer.parseInt(line.group(1))));
        }
        // a script may be given the same key twice (stream mode's reap: the stream read and the stream added to)
        Set<String> keyNames = new LinkedHashSet<>();
        for (byte[] key : keys) {
            keyNames.add(new String(key, StandardCharsets.UTF_8));
        }
        explained.append("; its keys: ").append(String.join(", ", keyNames)).append(')');
        return new RedisCommandExecutionException(explained.toString(), error);
    }

    private static String sourceLine(byte[] source, int number) {
        String[] lines = new String(source, StandardCharsets.UTF_8).split("\n", -1);
        return number >= 1 && number <= lines.length ? lines[number - 1].trim() : "?";
    }
}

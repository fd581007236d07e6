package dev.reliableredis.queue.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * One Lua script from the classpath, run with EVALSHA; a server that does not know it yet (first use, a
 * restart, SCRIPT FLUSH) gets it with EVAL, which also caches it there. A line
 * {@code include("path", "other/path")} is replaced by the files {@code lua/path.lua} and {@code lua/other/path.lua},
 * each the first time it comes, so that scripts can share helper functions (as BullMQ's do); Lua reads it as a call
 * of a function no script defines, so a script run unexpanded fails there.
 */
public final class LuaScript {

    private static final Pattern INCLUDE = Pattern.compile("^include\\(((?:\"[\\w/.-]+\", )*\"[\\w/.-]+\")\\)\\s*$");
    private static final Pattern NAME = Pattern.compile("\"([\\w/.-]+)\"");

    private final String name;
    private final byte[] source;
    private final String sha;

    private LuaScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /** Loads {@code dev/reliableredis/queue/lua/<name>.lua} from the classpath, with its includes expanded. */
    public static LuaScript load(String name) {
        return new LuaScript(name, expand(name, new HashSet<>(), new ArrayList<>()).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The script with its includes expanded, as BullMQ's loader does: an include may include others, each is inlined
     * once, where it is first included (so a script names only what it uses, and an include what it needs before
     * it), and a cycle is refused, naming it.
     */
    private static String expand(String name, Set<String> included, List<String> chain) {
        chain.add(name);
        StringJoiner source = new StringJoiner("\n");
        for (String line : read(name).split("\n", -1)) {
            Matcher include = INCLUDE.matcher(line);
            if (!include.matches()) {
                source.add(line);
                continue;
            }
            Matcher names = NAME.matcher(include.group(1));
            while (names.find()) {
                String dependency = names.group(1);
                if (chain.contains(dependency)) {
                    throw new IllegalStateException("Lua includes form a cycle: " + String.join(" -> ", chain)
                            + " -> " + dependency);
                }
                if (included.add(dependency)) {
                    source.add(expand(dependency, included, chain));
                }
            }
        }
        chain.remove(chain.size() - 1);
        return source.toString();
    }

    private static String read(String name) {
        String path = "/dev/reliableredis/queue/lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Missing script " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read script " + path, e);
        }
    }

    /**
     * Runs the script with EVALSHA, or with EVAL when Redis does not know it; the reply, without waiting for it. An ACL
     * refusal says what was refused (see {@link AclRefusal}).
     */
    public <T> CompletionStage<T> run(RedisClusterAsyncCommands<byte[], byte[]> redis, ScriptOutputType type,
            byte[][] keys, byte[]... args) {
        return redis.<T>evalsha(sha, type, keys, args).exceptionallyCompose(error -> {
            Throwable cause = unwrap(error);
            return cause instanceof RedisNoScriptException
                    ? redis.<T>eval(source, type, keys, args)
                    : CompletableFuture.failedStage(cause);
        }).exceptionallyCompose(error -> CompletableFuture.failedStage(
                AclRefusal.explain(unwrap(error), toString(), source, keys)));
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException ? error.getCause() : error;
    }

    private static String sha1(byte[] source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name + ".lua";
    }

}

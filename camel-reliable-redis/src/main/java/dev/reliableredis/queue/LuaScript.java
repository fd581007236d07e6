package dev.reliableredis.queue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
 * restart, SCRIPT FLUSH) gets it with EVAL, which also caches it there. A line {@code --- @include "path"}
 * is replaced by the file {@code lua/path.lua}, so that scripts can share helper functions (as BullMQ's do).
 */
public final class LuaScript {

    private static final Pattern INCLUDE = Pattern.compile("^--- @include \"([\\w/.-]+)\"\\s*$");

    private final String name;
    private final byte[] source;
    private final String sha;

    private LuaScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /** Loads {@code lua/<name>.lua} next to this class, with its includes expanded. */
    public static LuaScript load(String name) {
        return new LuaScript(name, expand(name).getBytes(StandardCharsets.UTF_8));
    }

    private static String expand(String name) {
        StringJoiner source = new StringJoiner("\n");
        for (String line : read(name).split("\n", -1)) {
            Matcher include = INCLUDE.matcher(line);
            source.add(include.matches() ? expand(include.group(1)) : line);
        }
        return source.toString();
    }

    private static String read(String name) {
        String path = "lua/" + name + ".lua";
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

package dev.reliableredis.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's packages depend on each other one way, read from the sources' imports and fully qualified names:
 * {@code internal}, {@code keys} and {@code batch} use no other package of the engine, {@code redis} and
 * {@code schedule} only {@code internal}, and
 * the API (the root package) uses neither {@code calls}, what the modes build on, nor the consumer runtime. A use is
 * an import or a fully qualified name.
 */
class PackageDependencyTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/reliableredis/queue");
    private static final Pattern USE = Pattern.compile("\\bdev\\.reliableredis\\.queue\\.((?:[a-z]\\w*\\.)*)[A-Z]");

    @Test
    void internalUsesNoOtherPackageOfTheEngine() throws IOException {
        assertThat(uses("internal", Set.of())).isEmpty();
    }

    @Test
    void redisUsesOnlyInternal() throws IOException {
        assertThat(uses("redis", Set.of("internal"))).isEmpty();
    }

    @Test
    void scheduleUsesOnlyInternal() throws IOException {
        assertThat(uses("schedule", Set.of("internal"))).isEmpty();
    }

    @Test
    void keysAndBatchUseNoOtherPackageOfTheEngine() throws IOException {
        assertThat(uses("keys", Set.of())).isEmpty();
        assertThat(uses("batch", Set.of())).isEmpty();
    }

    @Test
    void theApiDoesNotUseTheSharedScriptCalls() throws IOException {
        assertThat(uses("", Set.of("internal", "redis", "schedule", "keys", "batch", "list", "stream", "sharded")))
                .isEmpty();
    }

    /** The uses, as "file: package", that the package's files make of engine packages other than {@code allowed}. */
    private static List<String> uses(String pkg, Set<String> allowed) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Matcher use = USE.matcher(Files.readString(file));
                while (use.find()) {
                    String used = use.group(1).replaceAll("\\.$", "");
                    if (!used.equals(pkg) && !allowed.contains(used)) {
                        found.add(file.getFileName() + ": " + used);
                    }
                }
            }
        }
        return found;
    }
}

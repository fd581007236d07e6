package dev.reliableredis.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** One consumer JVM of a soak run; it can be killed with SIGKILL and started again with the same ledger. */
final class ConsumerJvm {

    private final List<String> command;
    private final Path log;
    private Process process;

    ConsumerJvm(String redisUri, SoakConfig config, Path ledger, Path log) {
        this.log = log;
        this.command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err",
                SoakConsumer.class.getName(), redisUri,
                config.endpoint(), ledger.toString(), String.valueOf(config.concurrentConsumers()),
                String.valueOf(config.failureRate()), String.valueOf(config.slowRate()),
                String.valueOf(config.visibilityMs()));
    }

    synchronized void start() {
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown, no ack of what it was processing. */
    synchronized void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    synchronized void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}

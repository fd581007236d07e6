package dev.reliableredis.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Runs one measured run in a fresh process and reads back its RESULT line; its other output goes to a log. */
final class ChildProcess {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MINUTES = 15;

    private ChildProcess() {
    }

    /** A fresh JVM running {@link RunOne} with the spec. */
    static Map<String, Object> jvm(Spec spec, File log) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xms1g", "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err",
                RunOne.class.getName(), JSON.writeValueAsString(spec)));
        return run(command, null, log);
    }

    /** A Node process running the BullMQ contender (benchmarks/bullmq). */
    static Map<String, Object> node(Map<String, Object> spec, File dir, File log) throws Exception {
        return run(List.of("node", "bench.mjs", JSON.writeValueAsString(spec)), dir, log);
    }

    private static Map<String, Object> run(List<String> command, File dir, File log) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir)
                .redirectError(ProcessBuilder.Redirect.appendTo(log)).start();
        String result = null;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring("RESULT ".length());
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
            throw e;
        }
        if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        if (result == null || process.exitValue() != 0) {
            throw new IllegalStateException("Run failed (exit " + process.exitValue() + "), see " + log);
        }
        return JSON.readValue(result, new TypeReference<>() {
        });
    }
}

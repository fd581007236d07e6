package dev.reliableredis.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Runs one measured run in a fresh process and reads back its RESULT line; its other output goes to a log. */
final class ChildProcess {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MINUTES = 15;
    /**
     * The main artifacts of the engine and the component: their classes folders, or their jars (a version follows the
     * artifact id, which tells the component's from the starter's and console's jars), not their test-jars.
     */
    private static final Pattern COMPONENT = Pattern.compile(
            "(^|/)(reliable-redis-queue|camel-reliable-redis)(/target/classes/?|-\\d[^/]*(?<!-tests)\\.jar)$");

    private ChildProcess() {
    }

    /**
     * A fresh JVM running {@link RunOne} with the spec; with {@code bench.jfr} (a folder), it records a JFR profile
     * there, one file per run, named by its label and round, with the settings {@code bench.jfrSettings} names
     * ({@code profile}, or a .jfc file).
     */
    static Map<String, Object> jvm(Spec spec, File log) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-Xms1g", "-Xmx1g"));
        String jfr = System.getProperty("bench.jfr", "");
        if (!jfr.isEmpty()) {
            Path folder = Files.createDirectories(Path.of(jfr));
            String file = spec.label().replaceAll("[^\\w=.-]+", "_") + "-round" + spec.round() + ".jfr";
            command.add("-XX:StartFlightRecording=settings=" + System.getProperty("bench.jfrSettings", "profile")
                    + ",filename=" + folder.resolve(file).toAbsolutePath());
        }
        command.addAll(List.of("-cp", classPath(spec.build()),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err",
                RunOne.class.getName(), JSON.writeValueAsString(spec)));
        return run(command, null, log);
    }

    /**
     * This JVM's class path; for a baseline build, with {@code bench.baselineJar} (its jars, separated as a class path
     * is: the component's alone before the engine was a module of its own, else the engine's and the component's) in
     * place of this build's main artifacts of both (a reactor build names their jars or classes folders, a build of
     * this module alone the jars in the local repository). The test-jar stays this build's: only the benchmark's own
     * JVM uses it (RedisProcess).
     */
    static String classPath(String build) {
        String classPath = System.getProperty("java.class.path");
        if (build.isEmpty()) {
            return classPath;
        }
        String jars = System.getProperty("bench.baselineJar", "");
        for (String jar : jars.split(File.pathSeparator)) {
            if (!Files.isRegularFile(Path.of(jar))) {
                throw new IllegalStateException("bench.baselineJar '" + jar + "' is not a file");
            }
        }
        List<String> entries = new ArrayList<>(List.of(classPath.split(File.pathSeparator)));
        int all = entries.size();
        int first = -1;
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (COMPONENT.matcher(entries.get(i)).find()) {
                entries.remove(i);
                first = i;
            }
        }
        if (first < 0 || entries.size() + 2 != all) {
            throw new IllegalStateException("Expected the engine's and the component's main artifacts on the class "
                    + "path, once each: " + classPath);
        }
        entries.add(first, jars);
        return String.join(File.pathSeparator, entries);
    }

    /** A fresh JVM running {@code main} of the class with the argument, on the class path of the build. */
    static Map<String, Object> jvm(Class<?> main, String build, String argument, File log) throws Exception {
        return run(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xms512m", "-Xmx512m", "-cp",
                classPath(build), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.logFile=System.err", main.getName(), argument), null, log);
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

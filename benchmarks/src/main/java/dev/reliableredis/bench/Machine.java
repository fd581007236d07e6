package dev.reliableredis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One line on the machine the benchmark ran on. */
final class Machine {

    private Machine() {
    }

    static String describe() {
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpuModel() + "), Java "
               + System.getProperty("java.version") + ", " + System.getProperty("os.name") + " "
               + System.getProperty("os.version");
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }
}

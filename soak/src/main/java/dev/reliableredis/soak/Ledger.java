package dev.reliableredis.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the consumer JVMs wrote down, read back after the run: every attempt ("A id count ms") and every
 * completed processing ("D id count ms"). A line cut short by a SIGKILL is skipped.
 */
final class Ledger {

    /** One completed processing. */
    record Done(int deliveryCount, long at) {
    }

    final Map<String, List<Done>> done = new HashMap<>();
    /** When each (id, delivery count) attempt started. */
    private final Map<String, Long> started = new HashMap<>();
    final Map<String, Integer> mostDeliveries = new HashMap<>();
    long attempts;

    /** When the attempt that ended in this completed processing started. */
    long startOf(String id, Done done) {
        return started.getOrDefault(id + " " + done.deliveryCount(), done.at());
    }

    static Ledger read(List<Path> files) throws IOException {
        Ledger ledger = new Ledger();
        for (Path file : files) {
            if (Files.exists(file)) {
                Files.readAllLines(file).forEach(ledger::add);
            }
        }
        return ledger;
    }

    private void add(String line) {
        String[] parts = line.split(" ");
        if (parts.length != 4 || !parts[3].matches("\\d+")) {
            return;
        }
        int count = Integer.parseInt(parts[2]);
        if ("A".equals(parts[0])) {
            attempts++;
            started.put(parts[1] + " " + count, Long.parseLong(parts[3]));
            mostDeliveries.merge(parts[1], count, Math::max);
        } else if ("D".equals(parts[0])) {
            done.computeIfAbsent(parts[1], id -> new ArrayList<>()).add(new Done(count, Long.parseLong(parts[3])));
        }
    }
}

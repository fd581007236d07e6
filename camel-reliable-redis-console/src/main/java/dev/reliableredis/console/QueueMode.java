package dev.reliableredis.console;

import java.util.Locale;

/** How a queue keeps its messages, as the component's {@code mode} option names it. */
enum QueueMode {
    LIST, STREAM;

    String option() {
        return name().toLowerCase(Locale.ROOT);
    }
}

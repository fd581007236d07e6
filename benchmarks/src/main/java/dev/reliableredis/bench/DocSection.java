package dev.reliableredis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A generated section of docs/performance.md, between its two markers; the rest of the page is left as it is. */
final class DocSection {

    private DocSection() {
    }

    /** Replaces the section, or adds it at the end of the page. */
    static void write(Path page, String name, String command, String text) throws IOException {
        String begin = "<!-- " + name + ": written by " + command + " -->";
        String end = "<!-- end of " + name + " -->";
        String doc = Files.exists(page) ? Files.readString(page) : "# Performance\n";
        int from = doc.indexOf(begin);
        int to = doc.indexOf(end);
        if (from < 0 || to < from) {
            doc = doc + "\n" + begin + "\n" + end + "\n";
            from = doc.indexOf(begin);
            to = doc.indexOf(end);
        }
        Files.writeString(page, doc.substring(0, from + begin.length()) + "\n" + text + doc.substring(to));
    }
}

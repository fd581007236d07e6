package dev.reliableredis.camel.metadata;

import static org.assertj.core.api.Assertions.assertThat;

/** The generated parts of a hand-written document: the text between a start and an end marker line. */
final class Sections {

    private Sections() {
    }

    /** The document with the text between the two marker lines replaced; the markers stay. */
    static String replace(String doc, String start, String end, String content) {
        int from = doc.indexOf(start + "\n");
        int to = doc.indexOf(end + "\n");
        assertThat(from).as("the marker " + start).isNotNegative();
        assertThat(to).as("the marker " + end).isGreaterThan(from);
        return doc.substring(0, from + start.length() + 1) + content + doc.substring(to);
    }

    /** The text between the first line starting with {@code from} and the next line starting with {@code to}. */
    static String between(String doc, String from, String to) {
        int start = doc.indexOf("\n" + from);
        assertThat(start).as("a line starting with " + from).isNotNegative();
        int end = doc.indexOf("\n" + to, start + from.length() + 1);
        return end < 0 ? doc.substring(start) : doc.substring(start, end);
    }
}

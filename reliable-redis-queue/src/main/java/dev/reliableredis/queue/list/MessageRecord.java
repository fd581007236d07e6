package dev.reliableredis.queue.list;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A list-mode message as stored in the messages hash: {@code <enqueuedAt ms>|<headers length>|<headers JSON><body>}.
 * The producer sends the payload (from the headers length on); the enqueue script puts the server time in front.
 *
 * @param enqueuedAt Redis server time of the enqueue, epoch ms; -1 when malformed
 * @param headers    the headers JSON, "" for none
 * @param body       the body, byte for byte; when malformed, the whole record as stored
 * @param malformed  null; for a record something else wrote without this shape, what is wrong with it
 */
record MessageRecord(long enqueuedAt, String headers, byte[] body, String malformed) {

    /** Digits of a time in ms that always fit a long. */
    private static final int MAX_TIME_DIGITS = 18;
    /** Bytes of a part of a record a failure shows: a record is written by anything and can be megabytes. */
    private static final int MAX_PART_SHOWN = 20;

    /** The payload the enqueue script stores after the time: headers length, '|', headers JSON, body. */
    static byte[] payload(String headersJson, byte[] body) {
        byte[] headers = headersJson.getBytes(StandardCharsets.UTF_8);
        byte[] length = (headers.length + "|").getBytes(StandardCharsets.US_ASCII);
        byte[] payload = Arrays.copyOf(length, length.length + headers.length + body.length);
        System.arraycopy(headers, 0, payload, length.length, headers.length);
        System.arraycopy(body, 0, payload, length.length + headers.length, body.length);
        return payload;
    }

    /**
     * Reads a record. list/claim dead-letters a malformed one instead of returning it; claim-dead and browse return
     * it as stored. The rules and the words of {@link #malformed} are those of list/includes/record.lua, so that
     * browse shows a record as malformed exactly as claim dead-letters it.
     */
    static MessageRecord parse(byte[] record) {
        int timeEnd = indexOf(record, 0);
        int lengthEnd = timeEnd < 0 ? -1 : indexOf(record, timeEnd + 1);
        if (lengthEnd < 0) {
            return malformed(record, "it does not start with enqueuedAt|headersLength|");
        }
        if (!digits(record, 0, timeEnd)) {
            return malformed(record, "enqueuedAt " + part(record, 0, timeEnd) + " is not a number");
        }
        if (timeEnd > MAX_TIME_DIGITS) {
            return malformed(record, "enqueuedAt " + part(record, 0, timeEnd) + " is out of range");
        }
        if (!digits(record, timeEnd + 1, lengthEnd)) {
            return malformed(record, "headers length " + part(record, timeEnd + 1, lengthEnd) + " is not a number");
        }
        int headersStart = lengthEnd + 1;
        int after = record.length - headersStart;
        long headersLength = numberUpTo(record, timeEnd + 1, lengthEnd, after);
        if (headersLength > after) {
            return malformed(record, "headers length " + part(record, timeEnd + 1, lengthEnd) + " is more than the "
                                     + after + " bytes after it");
        }
        int bodyStart = headersStart + (int) headersLength;
        return new MessageRecord(Long.parseLong(new String(record, 0, timeEnd, StandardCharsets.US_ASCII)),
                new String(record, headersStart, bodyStart - headersStart, StandardCharsets.UTF_8),
                Arrays.copyOfRange(record, bodyStart, record.length), null);
    }

    private static MessageRecord malformed(byte[] record, String problem) {
        return new MessageRecord(-1, "", record, "malformed record: " + problem);
    }

    private static int indexOf(byte[] record, int from) {
        for (int i = from; i < record.length; i++) {
            if (record[i] == '|') {
                return i;
            }
        }
        return -1;
    }

    private static boolean digits(byte[] record, int from, int to) {
        for (int i = from; i < to; i++) {
            if (record[i] < '0' || record[i] > '9') {
                return false;
            }
        }
        return to > from;
    }

    /** The decimal number of the digits from..to when it is at most limit, else a number above it: never overflows. */
    private static long numberUpTo(byte[] record, int from, int to, int limit) {
        long value = 0;
        for (int i = from; i < to && value <= limit; i++) {
            value = value * 10 + (record[i] - '0');
        }
        return value;
    }

    private static String part(byte[] record, int from, int to) {
        int shown = Math.min(to - from, MAX_PART_SHOWN);
        return "'" + new String(record, from, shown, StandardCharsets.UTF_8) + (to - from > shown ? "..." : "") + "'";
    }
}

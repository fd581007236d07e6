package dev.reliableredis.queue.list;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A list-mode message as stored in the messages hash: {@code <enqueuedAt ms>|<headers length>|<headers JSON><body>}.
 * The producer sends the payload (from the headers length on); the enqueue script puts the server time in front.
 *
 * @param enqueuedAt Redis server time of the enqueue, epoch ms
 * @param headers    the headers JSON, "" for none
 * @param body       the body, byte for byte
 */
record MessageRecord(long enqueuedAt, String headers, byte[] body) {

    /** The payload the enqueue script stores after the time: headers length, '|', headers JSON, body. */
    static byte[] payload(String headersJson, byte[] body) {
        byte[] headers = headersJson.getBytes(StandardCharsets.UTF_8);
        byte[] length = (headers.length + "|").getBytes(StandardCharsets.US_ASCII);
        byte[] payload = Arrays.copyOf(length, length.length + headers.length + body.length);
        System.arraycopy(headers, 0, payload, length.length, headers.length);
        System.arraycopy(body, 0, payload, length.length + headers.length, body.length);
        return payload;
    }

    /** Reads a record the claim scripts checked the shape of ({@code ^\d+|\d+|}). */
    static MessageRecord parse(byte[] record) {
        int timeEnd = indexOf(record, 0);
        int lengthEnd = indexOf(record, timeEnd + 1);
        long enqueuedAt = digits(record, 0, timeEnd);
        int headersLength = (int) digits(record, timeEnd + 1, lengthEnd);
        int headersStart = lengthEnd + 1;
        int bodyStart = Math.min(record.length, headersStart + headersLength);
        return new MessageRecord(enqueuedAt,
                new String(record, headersStart, bodyStart - headersStart, StandardCharsets.UTF_8),
                Arrays.copyOfRange(record, bodyStart, record.length));
    }

    private static int indexOf(byte[] record, int from) {
        for (int i = from; i < record.length; i++) {
            if (record[i] == '|') {
                return i;
            }
        }
        throw new IllegalArgumentException("Not a message record");
    }

    private static long digits(byte[] record, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            value = value * 10 + (record[i] - '0');
        }
        return value;
    }
}

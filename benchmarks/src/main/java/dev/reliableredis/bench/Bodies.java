package dev.reliableredis.bench;

import java.util.Arrays;

/** Message bodies of 100 bytes that carry their index in the first ten, so every contender's receipts can be checked. */
public final class Bodies {

    public static final int SIZE = 100;
    private static final int DIGITS = 10;

    private Bodies() {
    }

    public static byte[] of(int index) {
        byte[] body = new byte[SIZE];
        Arrays.fill(body, DIGITS, SIZE, (byte) 'x');
        for (int i = DIGITS - 1, rest = index; i >= 0; i--, rest /= 10) {
            body[i] = (byte) ('0' + rest % 10);
        }
        return body;
    }

    public static int index(byte[] body) {
        int index = 0;
        for (int i = 0; i < DIGITS; i++) {
            index = index * 10 + (body[i] - '0');
        }
        return index;
    }
}

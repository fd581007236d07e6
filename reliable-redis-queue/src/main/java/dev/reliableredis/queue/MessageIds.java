package dev.reliableredis.queue;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The ids the producer gives messages sent without a deduplication id: 128 random bits written as 22 characters of
 * URL-safe Base64 instead of a UUID's 36 of hex and dashes. An id is stored about three times per message (the ready
 * list, the message hash, the acked set), so the shorter form saves about 40 bytes of Redis per message.
 *
 * <p>An id must be as hard to guess as a random UUID's: a program that could tell the next id could store a message
 * under it first and turn a real send into a no-op. Each thread draws from a DRBG of its own (NIST SP 800-90A, seeded
 * by the JDK from the system's entropy), not from the one SecureRandom that {@code UUID.randomUUID} shares with every
 * thread of the process, whose lock senders queued on.
 */
public final class MessageIds {

    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final int BYTES = 16;
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(MessageIds::newGenerator);

    private MessageIds() {
    }

    public static String newId() {
        byte[] id = new byte[BYTES];
        RANDOM.get().nextBytes(id);
        return BASE64.encodeToString(id);
    }

    private static SecureRandom newGenerator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("This JVM has no DRBG SecureRandom (Java 9 and newer have one)", e);
        }
    }
}

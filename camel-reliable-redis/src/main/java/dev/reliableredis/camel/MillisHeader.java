package dev.reliableredis.camel;

import java.math.BigDecimal;
import java.time.Duration;

import org.apache.camel.Message;

/**
 * A header of ms (a delay, a time to live, a pause), read as written, not with Camel's conversion, which turns NaN
 * into null and 1.5 into 1 (docs/decisions.md, "Time headers are read as written").
 */
final class MillisHeader {

    private MillisHeader() {
    }

    /**
     * The header's value, checked: a whole number from 0 to {@code max}, else the fallback when it is absent. A value
     * that is not fails naming the header, the value and the queue.
     */
    static long read(Message message, String header, long fallback, long max, String queue) {
        Object value = message.getHeader(header);
        if (value == null) {
            return fallback;
        }
        BigDecimal millis;
        try {
            millis = new BigDecimal(value.toString().trim());
        } catch (NumberFormatException e) {
            millis = null;
        }
        if (millis == null || millis.signum() < 0 || millis.compareTo(BigDecimal.valueOf(max)) > 0
                || millis.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(header + " must be a whole number of ms from 0 to " + max + " ("
                    + Duration.ofMillis(max).toDays() + " days), was '" + value + "' (queue '" + queue + "')");
        }
        return millis.longValueExact();
    }
}

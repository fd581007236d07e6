package dev.reliableredis.queue.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A script's settings as one argument: a MessagePack map of named fields, which the script reads with
 * {@code cmsgpack.unpack} (built into Redis's Lua), as BullMQ passes its {@code opts}. Each field is a queue option,
 * or what the engine derives from one; a queue packs its settings once, so that each call passes one constant
 * argument instead of a string per option, and an option is a name in the script, not a position.
 */
public final class ScriptSettings {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    private ScriptSettings() {
    }

    public static ScriptSettings of() {
        return new ScriptSettings();
    }

    public ScriptSettings with(String name, long value) {
        fields.put(name, value);
        return this;
    }

    public ScriptSettings with(String name, double value) {
        fields.put(name, value);
        return this;
    }

    public ScriptSettings with(String name, String value) {
        fields.put(name, value);
        return this;
    }

    /** The fields as a MessagePack map: string names, integers, doubles and strings as MessagePack writes them. */
    public byte[] pack() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        header(out, fields.size(), 0x80, 0xde);
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            string(out, field.getKey());
            Object value = field.getValue();
            if (value instanceof Long number) {
                integer(out, number);
            } else if (value instanceof Double number) {
                out.write(0xcb);
                bigEndian(out, Double.doubleToLongBits(number), 8);
            } else {
                string(out, (String) value);
            }
        }
        return out.toByteArray();
    }

    private static void header(ByteArrayOutputStream out, int size, int fixed, int sixteen) {
        if (size < 16) {
            out.write(fixed | size);
        } else {
            out.write(sixteen);
            bigEndian(out, size, 2);
        }
    }

    private static void string(ByteArrayOutputStream out, String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length < 32) {
            out.write(0xa0 | utf8.length);
        } else if (utf8.length < 256) {
            out.write(0xd9);
            out.write(utf8.length);
        } else if (utf8.length < 65_536) {
            out.write(0xda);
            bigEndian(out, utf8.length, 2);
        } else {
            throw new IllegalArgumentException("A script setting of " + utf8.length + " bytes; at most 65,535");
        }
        out.writeBytes(utf8);
    }

    /** A positive fixint, else a signed 64-bit integer: the settings are few and packed once. */
    private static void integer(ByteArrayOutputStream out, long value) {
        if (value >= 0 && value < 128) {
            out.write((int) value);
        } else {
            out.write(0xd3);
            bigEndian(out, value, 8);
        }
    }

    private static void bigEndian(ByteArrayOutputStream out, long value, int bytes) {
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }
}

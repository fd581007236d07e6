package dev.reliableredis.queue;

/** An option whose values are an enum's constants: {@link #value()} is the value the URI gives and scripts read. */
public interface OptionValue {

    /** The constant's name in lower camel case: {@code DEAD_LETTER} is {@code deadLetter}. */
    default String value() {
        return Options.value((Enum<?>) this);
    }
}

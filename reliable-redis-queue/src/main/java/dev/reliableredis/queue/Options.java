package dev.reliableredis.queue;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Reads an option's value as the enum constant that has it. */
final class Options {

    private Options() {
    }

    /** The constant whose value is {@code value}; IllegalArgumentException naming the option and the choices. */
    static <E extends Enum<E>> E parse(String option, String value, E[] choices, Function<E, String> valueOf) {
        for (E choice : choices) {
            if (valueOf.apply(choice).equals(value)) {
                return choice;
            }
        }
        throw new IllegalArgumentException(option + " must be " + Arrays.stream(choices)
                .map(choice -> "'" + valueOf.apply(choice) + "'").collect(Collectors.joining(" or ")) + ", was '"
                                           + value + "'");
    }
}

package dev.reliableredis.queue;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * An enum option's value, as the URI gives it: the constant's name in lower camel case ({@code DEAD_LETTER} is
 * {@code deadLetter}).
 */
final class Options {

    private Options() {
    }

    /** Each enum's values by ordinal, derived once: the claims pass them on every call. */
    private static final ClassValue<String[]> VALUES = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            return Arrays.stream(type.getEnumConstants()).map(constant -> camelCase(((Enum<?>) constant).name()))
                    .toArray(String[]::new);
        }
    };

    /** The constant's name in lower camel case. */
    static String value(Enum<?> constant) {
        return VALUES.get(constant.getDeclaringClass())[constant.ordinal()];
    }

    private static String camelCase(String name) {
        String[] words = name.toLowerCase(Locale.ROOT).split("_");
        StringBuilder value = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            value.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return value.toString();
    }

    /** The constant whose value is {@code value}; IllegalArgumentException naming the option and the choices. */
    static <E extends Enum<E>> E parse(String option, String value, E[] choices) {
        for (E choice : choices) {
            if (value(choice).equals(value)) {
                return choice;
            }
        }
        throw new IllegalArgumentException(option + " must be " + Arrays.stream(choices)
                .map(choice -> "'" + value(choice) + "'").collect(Collectors.joining(" or ")) + ", was '" + value
                                           + "'");
    }
}

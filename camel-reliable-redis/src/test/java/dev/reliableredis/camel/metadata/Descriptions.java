package dev.reliableredis.camel.metadata;

import java.util.ArrayList;
import java.util.List;

import dev.reliableredis.camel.metadata.ComponentMetadata.Option;

/** What both reference formats say of an option besides its name and default. */
final class Descriptions {

    private Descriptions() {
    }

    /** The flags in bold first, then the description, the enum values and, for a header, its Java constant. */
    static String of(Option option, String bold, String code) {
        List<String> flags = new ArrayList<>();
        if (option.required()) {
            flags.add("Required");
        }
        if (option.deprecated()) {
            flags.add("Deprecated");
        }
        if (option.autowired()) {
            flags.add("Autowired");
        }
        if (option.secret()) {
            flags.add("Secret");
        }
        StringBuilder text = new StringBuilder();
        flags.forEach(flag -> text.append(bold).append(flag).append(bold).append(' '));
        text.append(option.description());
        if (!option.enums().isEmpty()) {
            text.append(" One of: ").append(String.join(", ", option.enums().stream()
                    .map(e -> code + e + code).toList())).append('.');
        }
        if (option.constantName() != null) {
            String constant = option.constantName().substring(option.constantName().lastIndexOf('.') + 1);
            text.append(" Constant: ").append(code).append(constant.replace('#', '.')).append(code).append('.');
        }
        return text.toString();
    }

    /** The Java type without its packages: long, String, AbstractRedisClient; a time option is a duration. */
    static String simpleType(Option option) {
        if ("duration".equals(option.type())) {
            return "duration";
        }
        return option.javaType().replaceAll("[\\w$]+\\.", "");
    }
}

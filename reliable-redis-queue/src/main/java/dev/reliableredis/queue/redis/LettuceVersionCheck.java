package dev.reliableredis.queue.redis;

import io.lettuce.core.RedisClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per JVM, when the Lettuce on the class path is older than 6.8. On Lettuce 6.6 (what Spring Boot 3.5
 * manages) a claimer whose connection Redis had cut got nothing on its next claim, with a message waiting
 * (ListClaimerTest); on 6.8 and 7.7 it gets the message. The tests run on 6.8 and 7.7.
 */
final class LettuceVersionCheck {

    private static final Logger LOG = LoggerFactory.getLogger(LettuceVersionCheck.class);
    private static volatile boolean checked;

    private LettuceVersionCheck() {
    }

    static void warnOnce() {
        if (checked) {
            return;
        }
        checked = true;
        String version = RedisClient.class.getPackage().getSpecificationVersion();
        if (isOlderThan68(version)) {
            LOG.warn("Lettuce {} is on the class path; reliable-redis needs Lettuce 6.8 or newer (on older ones a "
                     + "consumer whose connection was cut can miss the messages waiting for it). With Spring Boot, "
                     + "set the property lettuce.version to 6.8.2.RELEASE.", version);
        }
    }

    /** "6.6" is older, "6.8" and "7.7" are not; an unknown version (no manifest) is not warned about. */
    static boolean isOlderThan68(String specificationVersion) {
        if (specificationVersion == null || !specificationVersion.matches("\\d+\\.\\d+.*")) {
            return false;
        }
        String[] parts = specificationVersion.split("\\.");
        int major = Integer.parseInt(parts[0]);
        int minor = Integer.parseInt(parts[1].replaceAll("\\D.*", ""));
        return major < 6 || major == 6 && minor < 8;
    }
}

package dev.reliableredis.queue.redis;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LettuceVersionCheckTest {

    @Test
    void versionsBefore68AreOld() {
        assertThat(LettuceVersionCheck.isOlderThan68("6.6")).isTrue();
        assertThat(LettuceVersionCheck.isOlderThan68("5.3")).isTrue();
        assertThat(LettuceVersionCheck.isOlderThan68("6.8")).isFalse();
        assertThat(LettuceVersionCheck.isOlderThan68("6.10")).isFalse();
        assertThat(LettuceVersionCheck.isOlderThan68("7.7")).isFalse();
        assertThat(LettuceVersionCheck.isOlderThan68(null)).isFalse();
    }

    @Test
    void theLettuceOfTheBuildHasAVersionTheCheckReads() {
        assertThat(RedisClient.class.getPackage().getSpecificationVersion()).matches("\\d+\\.\\d+");
    }
}

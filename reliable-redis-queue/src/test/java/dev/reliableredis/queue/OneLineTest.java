package dev.reliableredis.queue;

import dev.reliableredis.queue.redis.OneLine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OneLineTest {

    @Test
    void everyKindOfLineBreakAndControlCharacterIsEscaped() {
        String forged = "id\nA\rB\u0085C\u2028D\u2029E\u000bF\fG\tH\u0000I\u001b[31mJ";

        assertThat(OneLine.of(forged))
                .isEqualTo("id\\nA\\rB\\u0085C\\u2028D\\u2029E\\u000bF\\u000cG\\tH\\u0000I\\u001b[31mJ");
    }

    @Test
    void textWithoutThemIsUnchanged() {
        assertThat(OneLine.of("order-7 é € 😀 {q}:x")).isEqualTo("order-7 é € 😀 {q}:x");
        assertThat(OneLine.of(null)).isEqualTo("null");
        assertThat(OneLine.of(12L)).isEqualTo("12");
    }
}

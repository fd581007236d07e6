package dev.reliableredis.queue;

import java.time.Duration;

import dev.reliableredis.queue.QueueSettings.ExpiredMessages;
import dev.reliableredis.queue.QueueSettings.GroupOnDeadLetter;
import dev.reliableredis.queue.QueueSettings.PriorityMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings are made by a builder from the contract's defaults, and checked once, when built. */
class QueueSettingsTest {

    @Test
    void aBuilderStartsFromTheDefaultsAndChangesOnlyWhatItIsGiven() {
        QueueSettings settings = QueueSettings.builder().maxInflight(5).priorityMode(PriorityMode.STRICT).build();

        assertThat(settings).isEqualTo(new QueueSettings(Duration.ofSeconds(30), 3, Duration.ofSeconds(1), 2.0,
                Duration.ofMinutes(1), 100, Duration.ofMinutes(5), 5, RateLimit.NONE, ExpiredMessages.DEAD_LETTER,
                PriorityMode.STRICT, GroupOnDeadLetter.CONTINUE));
        assertThat(settings.toBuilder().maxInflight(0).priorityMode(PriorityMode.WEIGHTED).build())
                .isEqualTo(QueueSettings.defaults());
    }

    @Test
    void aBadValueOrCombinationIsRefusedWhenBuiltNamingTheOption() {
        assertThatThrownBy(() -> QueueSettings.builder().maxInflight(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInflight");
        assertThatThrownBy(() -> QueueSettings.builder().retryDelay(Duration.ofMinutes(2)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRetryDelay (60000 ms) must not be less than retryDelay (120000 ms)");
        assertThatThrownBy(() -> QueueSettings.builder().groupOnDeadLetter(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("groupOnDeadLetter must be given");
    }

    @Test
    void aPolicyIsReadFromTheOptionsValueAndGivesItBack() {
        assertThat(ExpiredMessages.of("drop")).isEqualTo(ExpiredMessages.DROP);
        assertThat(PriorityMode.of("weighted").value()).isEqualTo("weighted");
        assertThat(QueueMode.of("stream")).isEqualTo(QueueMode.STREAM);
        assertThatThrownBy(() -> GroupOnDeadLetter.of("skip")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("groupOnDeadLetter must be 'continue' or 'block', was 'skip'");
        assertThatThrownBy(() -> QueueMode.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mode must be 'list' or 'stream', was 'null'");
    }
}

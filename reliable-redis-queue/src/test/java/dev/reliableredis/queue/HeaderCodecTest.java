package dev.reliableredis.queue;

import java.util.Map;

import dev.reliableredis.queue.internal.HeaderCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HeaderCodecTest {

    @Test
    void noHeadersIsTheEmptyString() {
        assertThat(HeaderCodec.encode(Map.of())).isEmpty();
        assertThat(HeaderCodec.decode("")).isEmpty();
    }

    @Test
    void aLongStaysExactBeyondDoublePrecision() {
        String json = HeaderCodec.encode(Map.of("big", Long.MAX_VALUE));
        assertThat(json).isEqualTo("{\"big\":[\"Long\",\"9223372036854775807\"]}");
        assertThat(HeaderCodec.decode(json)).containsEntry("big", Long.MAX_VALUE);
    }

    @Test
    void anUnsupportedTypeIsRejectedByName() {
        assertThatThrownBy(() -> HeaderCodec.encode(Map.of("when", new java.util.Date())))
                .hasMessageContaining("'when'").hasMessageContaining("java.util.Date");
    }

    @Test
    void unknownTypesAndMalformedValuesAreRejected() {
        assertThatThrownBy(() -> HeaderCodec.decode("{\"x\":[\"java.io.File\",\"/etc\"]}"))
                .hasMessageContaining("unknown type 'java.io.File'");
        assertThatThrownBy(() -> HeaderCodec.decode("{\"x\":[\"Long\",\"seven\"]}"))
                .hasMessageContaining("malformed value");
        assertThatThrownBy(() -> HeaderCodec.decode("[1,2]")).hasMessageContaining("JSON object");
    }
}

package dev.reliableredis.console;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BodyPreviewTest {

    @Test
    void showsAShortBodyWhole() {
        assertThat(BodyPreview.of(bytes("héllo\nworld"), null)).isEqualTo(new BodyPreview("héllo\nworld", false));
    }

    @Test
    void cutsALongBodyAtTwoHundredCharactersNotBytes() {
        BodyPreview preview = BodyPreview.of(bytes("€".repeat(1000)), null);

        assertThat(preview.text()).isEqualTo("€".repeat(200));
        assertThat(preview.truncated()).isTrue();
    }

    @Test
    void replacesBytesThatAreNotUtf8AndControlCharacters() {
        BodyPreview preview = BodyPreview.of(new byte[] {'a', (byte) 0xC3, 'b', 0, 7, '\t', 'c'}, null);

        assertThat(preview.text()).isEqualTo("a\uFFFDb\uFFFD\uFFFD\tc");
    }

    @Test
    void replacesEveryLineBreakButLineFeedTheUnicodeSeparatorsIncluded() {
        BodyPreview preview = BodyPreview.ofText("a\rb\u0085c\u2028d\u2029e\u000bf\fg\nh");

        assertThat(preview.text()).isEqualTo("a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\nh");
    }

    @Test
    void showsTheFieldsOfAnEntryAnotherProgramWroteAsJson() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("order_id", "7");
        fields.put("note", "<i>x</i>");

        assertThat(BodyPreview.of(new byte[0], fields).text()).isEqualTo("{\"order_id\":\"7\",\"note\":\"<i>x</i>\"}");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

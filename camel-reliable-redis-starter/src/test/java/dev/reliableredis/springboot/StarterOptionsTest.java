package dev.reliableredis.springboot;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's properties follow the component's options as Camel's tooling generated them (the component JSON in
 * the component's jar): every option of a plain type is a property of the same name and default, so that an option
 * added to the component and not here fails this test.
 */
class StarterOptionsTest {

    /** Options that are beans, not properties: the client comes from Spring Data Redis, TLS from camel.ssl.*. */
    private static final Set<String> BEANS = Set.of("redisClient", "sslContextParameters");
    /** Unset, redisUri means the application's Spring Data Redis client, if it has one, before the default. */
    private static final Set<String> DEFAULTS_OF_THEIR_OWN = Set.of("redisUri");

    @Test
    void everyComponentOptionIsAPropertyWithTheSameDefault() throws Exception {
        JsonNode options = componentJson().get("componentProperties");
        List<String> drifted = new ArrayList<>();
        for (Map.Entry<String, JsonNode> option : options.properties()) {
            if (BEANS.contains(option.getKey())) {
                continue;
            }
            Field property = propertyNamed(option.getKey());
            if (property == null) {
                drifted.add(option.getKey() + ": no property");
                continue;
            }
            if (DEFAULTS_OF_THEIR_OWN.contains(option.getKey())) {
                continue;
            }
            JsonNode documented = option.getValue().get("defaultValue");
            Object starterDefault = property.get(new ReliableRedisComponentConfiguration());
            String expected = documented == null ? null : documented.asText();
            if (!Objects.equals(expected, starterDefault == null ? null : starterDefault.toString())) {
                drifted.add(option.getKey() + ": default " + starterDefault + ", the component's " + expected);
            }
        }
        assertThat(drifted).as("component options the starter does not follow").isEmpty();
    }

    private static Field propertyNamed(String name) {
        try {
            Field field = ReliableRedisComponentConfiguration.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static JsonNode componentJson() throws IOException {
        try (InputStream in = StarterOptionsTest.class.getResourceAsStream(
                "/META-INF/dev/reliableredis/camel/reliable-redis.json")) {
            assertThat(in).as("the component JSON in the component's jar").isNotNull();
            return new ObjectMapper().readTree(in);
        }
    }
}

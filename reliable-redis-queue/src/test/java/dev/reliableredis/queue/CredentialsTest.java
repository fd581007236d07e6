package dev.reliableredis.queue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import dev.reliableredis.queue.redis.Credentials;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** What is shown of a text or an error that holds a Redis URI: never its user info, whatever its password holds. */
class CredentialsTest {

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?", "@"})
    void aTextShowsNoPasswordWhateverItHolds(String character) {
        String password = "s3cr" + character + "et";

        assertThat(Credentials.mask("Unable to connect to redis://app:" + password + "@cache:6379 (no answer)"))
                .isEqualTo("Unable to connect to redis://xxxxxx@cache:6379 (no answer)");
        assertThat(Credentials.mask("[redis://:" + password + "@a:1, rediss://" + password + "@b:2/3]"))
                .isEqualTo("[redis://xxxxxx@a:1, rediss://xxxxxx@b:2/3]");
        String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8);
        assertThat(Credentials.mask("redisUri=redis%3A%2F%2Fapp%3A" + encoded + "%40cache&mode=list"))
                .isEqualTo("redisUri=redis%3A%2F%2Fxxxxxx%40cache&mode=list");
    }

    @ParameterizedTest(name = "a password with {0}")
    @ValueSource(strings = {"&", "#", "/", "?"})
    void anErrorShowsNoPasswordInItsMessagesAndKeepsItsTypesAndTrace(String character) {
        String password = "s3cr" + character + "et";
        RedisConnectionException error = new RedisConnectionException("Unable to connect to redis://app:" + password
                + "@cache:6379", new IllegalStateException("redis://:" + password + "@cache refused"));

        Throwable masked = Credentials.mask(error);

        StringWriter trace = new StringWriter();
        masked.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain("s3cr")
                .contains(RedisConnectionException.class.getName() + ": Unable to connect to redis://xxxxxx@cache:6379")
                .contains("Caused by: " + IllegalStateException.class.getName() + ": redis://xxxxxx@cache refused");
        assertThat(masked.getStackTrace()).isEqualTo(error.getStackTrace());
    }
}

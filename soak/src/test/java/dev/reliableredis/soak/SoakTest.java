package dev.reliableredis.soak;

import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short soak of the test run (both modes, every fault kind at least once). The long one is the same test with
 * more messages: see docs/reliability.md.
 */
class SoakTest {

    static Stream<String> modes() {
        return Arrays.stream(System.getProperty("soak.modes", "list,stream").split(","));
    }

    @ParameterizedTest(name = "{0} mode")
    @MethodSource("modes")
    void nothingIsLostWhileFaultsAreInjected(String mode) throws Exception {
        SoakReport report = Soak.run(SoakConfig.fromSystemProperties(mode));
        System.out.println(report);

        assertThat(report.everyFaultInjected()).as("every fault kind injected: %s", report.faults()).isTrue();
        assertThat(report.enqueued()).isEqualTo(SoakConfig.fromSystemProperties(mode).messages());
        if ("always".equals(report.config().appendfsync())) {
            assertThat(report.lost()).as(report.toString()).isZero();
        }
        assertThat(report.unexplainedDuplicates()).as(report.toString()).isZero();
    }
}

package dev.reliableredis.camel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.reliableredis.testsupport.RedisProcess;
import dev.reliableredis.testsupport.TestCertificates;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.main.Main;
import org.apache.camel.support.jsse.KeyManagersParameters;
import org.apache.camel.support.jsse.KeyStoreParameters;
import org.apache.camel.support.jsse.SSLContextParameters;
import org.apache.camel.support.jsse.SecureSocketProtocolsParameters;
import org.apache.camel.support.jsse.TrustManagersParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * rediss:// against a redis-server that speaks only TLS, with a CA made by the test: messages flow when
 * sslContextParameters trust that CA, and fail, saying it is the certificate, when they trust another CA or nothing
 * but the JVM's default truststore.
 */
@ParameterizedClass(name = "{0} mode")
@ValueSource(strings = {"list", "stream"})
class TlsTest {

    private static final String UNTRUSTED = "TLS handshake with Redis failed: the server's certificate is not trusted";

    @Parameter
    String mode;

    private static TestCertificates certificates;
    /** A CA that signed nothing the servers use. */
    private static TestCertificates otherCa;
    /** Speaks only TLS: not a subclass of CamelRedisTestBase, whose server is plain. */
    private static RedisProcess redis;

    private CamelContext context;
    private ProducerTemplate template;
    /** Trusts the CA and has a client certificate. */
    private RedisCommands<String, String> raw;
    private final List<Exchange> received = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.create();
        otherCa = TestCertificates.create();
    }

    /** The server is missing when redis-server lacks TLS, the certificates when openssl failed. */
    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
        if (certificates != null) {
            certificates.close();
        }
        if (otherCa != null) {
            otherCa.close();
        }
    }

    /**
     * The server is started by the first test rather than in {@code @BeforeAll}: Surefire does not report a
     * {@code @ParameterizedClass} skipped there, so where redis-server lacks TLS the reason would not show.
     */
    @BeforeEach
    void startCamel() {
        if (redis == null) {
            redis = RedisProcess.startTls(certificates);
        }
        raw = redis.commands();
        raw.flushall();
        context = new DefaultCamelContext();
        context.getRegistry().bind("trustsCa", trusting(certificates));
        context.getRegistry().bind("trustsOtherCa", trusting(otherCa));
        context.start();
        template = context.createProducerTemplate();
    }

    /** No context was made when the server could not start. */
    @AfterEach
    void stopCamel() {
        if (context != null) {
            context.stop();
        }
    }

    @Test
    void messagesFlowWhenTheServersCaIsTrusted() throws Exception {
        String uri = uri("q") + "&sslContextParameters=#trustsCa";
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(uri).process(received::add);
            }
        });

        String id = send(uri, "over TLS").getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID, String.class);

        await("the message received").atMost(Duration.ofSeconds(15)).until(() -> !received.isEmpty());
        assertThat(received.get(0).getMessage().getBody(String.class)).isEqualTo("over TLS");
        assertThat(received.get(0).getMessage().getHeader(ReliableRedisConstants.MESSAGE_ID)).isEqualTo(id);
    }

    @Test
    void theComponentsSettingsAndTheGlobalOnesApplyToEndpointsWithoutTheirOwn() throws Exception {
        ReliableRedisComponent component = context.getComponent("reliable-redis", ReliableRedisComponent.class);
        component.setSslContextParameters(trusting(certificates));
        Exchange viaComponent = send(uri("q"), "component");

        component.setSslContextParameters(null);
        component.setUseGlobalSslContextParameters(true);
        context.setSSLContextParameters(trusting(certificates));
        Exchange viaGlobal = send(uri("q2"), "global");

        assertThat(viaComponent.getException()).isNull();
        assertThat(viaGlobal.getException()).isNull();
    }

    @Test
    void camelMainsSslPropertiesServeAComponentThatUsesTheGlobalSettings() throws Exception {
        Main main = new Main();
        main.addInitialProperty("camel.ssl.enabled", "true");
        main.addInitialProperty("camel.ssl.trustStore", certificates.truststore().toUri().toString());
        main.addInitialProperty("camel.ssl.trustStorePassword", TestCertificates.STORE_PASSWORD);
        main.addInitialProperty("camel.component.reliable-redis.redis-uri", redis.uri());
        main.addInitialProperty("camel.component.reliable-redis.use-global-ssl-context-parameters", "true");
        main.start();
        try {
            Exchange sent = main.getCamelTemplate().request(base("q"), e -> e.getMessage().setBody("camel.ssl"));

            assertThat(sent.getException()).isNull();
            assertThat(raw.dbsize()).isPositive();
        } finally {
            main.stop();
        }
    }

    @Test
    void aSendThatTrustsAnotherCaFailsAndSaysItIsTheServersCertificate() {
        Exchange sent = send(uri("q") + "&sslContextParameters=#trustsOtherCa", "refused");

        assertThat(sent.getException()).hasMessageContaining(UNTRUSTED).hasMessageContaining("PKIX path building failed");
        assertThat(raw.dbsize()).isZero();
    }

    @Test
    void withoutSettingsTheCertificateIsCheckedAgainstTheJvmsTruststore() {
        Exchange sent = send(uri("q"), "refused");

        assertThat(sent.getException()).hasMessageContaining(UNTRUSTED).hasMessageContaining("PKIX path building failed");
        assertThat(raw.dbsize()).isZero();
    }

    @Test
    void aRouteThatTrustsAnotherCaIsDownAndItsHealthChecksSayItIsTheServersCertificate() throws Exception {
        // Camel runs producer checks only when asked to (camel.health.producersEnabled=true in camel-main)
        HealthCheckHelper.getHealthCheckRepository(context, "producers").setEnabled(true);
        String uri = uri("q") + "&sslContextParameters=#trustsOtherCa";
        context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(uri).routeId("consume").process(received::add);
                from("direct:send").to(uri);
            }
        });
        String producer = "producer:reliable-redis-" + context.getEndpoint(uri, ReliableRedisEndpoint.class).getId();

        // before its first attempt fails, the consumer's check says only that Redis has not answered yet
        String consumerDown = awaitDown("consumer:consume", "Redis calls for queue 'q' fail since");
        String producerDown = awaitDown(producer, "Redis does not answer the producer of queue 'q'");

        assertThat(consumerDown).contains(UNTRUSTED);
        assertThat(producerDown).contains(UNTRUSTED);
    }

    @Test
    void aCertificateThatDoesNotNameTheHostIsRefusedUnlessTheUriAsksOnlyForATrustedCa() {
        try (TestCertificates localhostOnly = TestCertificates.create("DNS:localhost");
                RedisProcess named = RedisProcess.startTls(localhostOnly)) {
            context.getRegistry().bind("trustsLocalhostOnly", trusting(localhostOnly));
            String options = "&sslContextParameters=#trustsLocalhostOnly&redisUri=";

            Exchange refused = send(base("q") + options + named.uri(), "refused");
            Exchange accepted = send(base("q") + options + "RAW(" + named.uri() + "?verifyPeer=CA)", "accepted");

            assertThat(refused.getException()).hasMessageContaining(UNTRUSTED)
                    .hasMessageContaining("No subject alternative names matching IP address 127.0.0.1");
            assertThat(accepted.getException()).isNull();
        }
    }

    @Test
    void aClientCertificateIsPresentedToAServerThatAsksForOne() throws Exception {
        try (RedisProcess mutual = RedisProcess.startTls(certificates, "--tls-auth-clients", "yes")) {
            SSLContextParameters withClientCertificate = trusting(certificates);
            KeyManagersParameters keys = new KeyManagersParameters();
            keys.setKeyStore(store(certificates.clientKeystore().toUri().toString()));
            keys.setKeyPassword(TestCertificates.STORE_PASSWORD);
            withClientCertificate.setKeyManagers(keys);
            context.getRegistry().bind("withClientCertificate", withClientCertificate);
            String endpoint = base("q") + "&redisUri=" + mutual.uri();

            Exchange without = send(endpoint + "&sslContextParameters=#trustsCa", "no certificate");
            Exchange with = send(endpoint + "&sslContextParameters=#withClientCertificate", "certificate");

            assertThat(without.getException()).hasMessageContaining("TLS handshake with Redis failed")
                    .hasMessageContaining("certificate_required");
            assertThat(with.getException()).isNull();
            assertThat(mutual.commands().dbsize()).isPositive();
        }
    }

    @Test
    void theProtocolsOfTheSettingsAreUsed() {
        try (RedisProcess tls13 = RedisProcess.startTls(certificates, "--tls-protocols", "TLSv1.3")) {
            SSLContextParameters tls12Only = trusting(certificates);
            SecureSocketProtocolsParameters protocols = new SecureSocketProtocolsParameters();
            protocols.getSecureSocketProtocol().add("TLSv1.2");
            tls12Only.setSecureSocketProtocols(protocols);
            context.getRegistry().bind("tls12Only", tls12Only);
            String endpoint = base("q") + "&redisUri=" + tls13.uri();

            Exchange refused = send(endpoint + "&sslContextParameters=#tls12Only", "TLSv1.2");
            Exchange accepted = send(endpoint + "&sslContextParameters=#trustsCa", "TLSv1.3");

            // the server's protocol_version alert, or, when Netty sees the server close the connection before it
            // reads the alert, what Lettuce (6.8 and 7) then reports: the handshake it was waiting for never came
            assertThat(refused.getException()).isNotNull().message()
                    .containsAnyOf("TLS handshake with Redis failed", "RedisHandshakeHandler not registered");
            assertThat(accepted.getException()).isNull();
            long stored = "stream".equals(mode) ? tls13.commands().xlen("rr:{q}:stream")
                    : tls13.commands().hlen("rr:{q}:messages");
            assertThat(stored).as("only the TLSv1.3 send is stored").isEqualTo(1);
        }
    }

    @Test
    void settingsWhoseTruststoreCannotBeReadFailTheEndpointsStart() {
        SSLContextParameters wrongPassword = trusting(certificates);
        wrongPassword.getTrustManagers().getKeyStore().setPassword("not-the-password");
        context.getRegistry().bind("wrongPassword", wrongPassword);

        assertThatThrownBy(() -> context.addRoutes(new RouteBuilder() {
            public void configure() {
                from(uri("q") + "&sslContextParameters=#wrongPassword").process(received::add);
            }
        })).hasStackTraceContaining("sslContextParameters cannot be used: keystore password was incorrect");
    }

    /** Sends the body through the endpoint; the exchange, with its exception if the send failed. */
    private Exchange send(String endpoint, String body) {
        return template.request(endpoint, e -> e.getMessage().setBody(body));
    }

    /** An endpoint URI on the class's server. */
    private String uri(String queue) {
        return base(queue) + "&redisUri=" + redis.uri();
    }

    private String base(String queue) {
        return "reliable-redis:" + queue + "?mode=" + mode;
    }

    /** The message of the check once it is DOWN with a message that says this. */
    private String awaitDown(String id, String saying) {
        return await(id + " DOWN, saying " + saying).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> HealthCheckHelper.invokeReadiness(context).stream()
                        .filter(result -> result.getCheck().getId().equals(id)
                                          && result.getState() == HealthCheck.State.DOWN)
                        .map(result -> result.getMessage().orElse("")).findFirst().orElse(""),
                        message -> message.contains(saying));
    }

    /** Camel's TLS settings that trust the CA of these certificates, from its PKCS12 truststore. */
    private static SSLContextParameters trusting(TestCertificates ca) {
        TrustManagersParameters trust = new TrustManagersParameters();
        trust.setKeyStore(store(ca.truststore().toUri().toString()));
        SSLContextParameters parameters = new SSLContextParameters();
        parameters.setTrustManagers(trust);
        return parameters;
    }

    private static KeyStoreParameters store(String resource) {
        KeyStoreParameters store = new KeyStoreParameters();
        store.setResource(resource);
        store.setType("PKCS12");
        store.setPassword(TestCertificates.STORE_PASSWORD);
        return store;
    }
}

package dev.reliableredis.camel;

import java.io.IOException;
import java.security.GeneralSecurityException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;

import io.lettuce.core.SslOptions;
import org.apache.camel.CamelContext;
import org.apache.camel.support.jsse.SSLContextParameters;

/**
 * The sslContextParameters option as Lettuce TLS settings. Lettuce builds a Netty SSL context of its own for each
 * connection and cannot take the SSLContext the parameters make, so it gets the parts of them a Redis client uses:
 * the trust managers (the CAs the server's certificate must chain to), the key managers (the client certificate
 * for a server with {@code tls-auth-clients}), and the protocols and cipher suites they allow. The certificate
 * alias, provider and secure random are not used. Peer verification stays Lettuce's: the URI's
 * {@code verifyPeer}, FULL (chain and host name) unless the URI says otherwise.
 */
final class RedisTls {

    private RedisTls() {
    }

    static SslOptions sslOptions(SSLContextParameters parameters, CamelContext camelContext) {
        try {
            // this also gives the nested parameters the CamelContext that loads their key stores
            SSLEngine engine = parameters.createSSLContext(camelContext).createSSLEngine();
            engine.setUseClientMode(true);
            X509KeyManager key = parameters.getKeyManagers() == null ? null
                    : first(X509KeyManager.class, parameters.getKeyManagers().createKeyManagers());
            X509TrustManager trust = parameters.getTrustManagers() == null ? null
                    : first(X509TrustManager.class, parameters.getTrustManagers().createTrustManagers());
            return SslOptions.builder()
                    .protocols(engine.getEnabledProtocols())
                    .cipherSuites(engine.getEnabledCipherSuites())
                    .sslContext(netty -> {
                        if (key != null) {
                            netty.keyManager(key);
                        }
                        if (trust != null) {
                            // without trust managers, Netty trusts the JVM's default truststore
                            netty.trustManager(trust);
                        }
                    })
                    .build();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("sslContextParameters cannot be used: " + e.getMessage(), e);
        }
    }

    /** The first manager of the type, the one an SSLContext initialised with all of them would use. */
    private static <T> T first(Class<T> type, Object[] managers) throws GeneralSecurityException {
        for (Object manager : managers) {
            if (type.isInstance(manager)) {
                return type.cast(manager);
            }
        }
        throw new GeneralSecurityException("no " + type.getSimpleName() + " among " + managers.length + " managers");
    }
}

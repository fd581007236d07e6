package dev.reliableredis.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A CA made for one test, with a server certificate and a client certificate it signed, in a temporary folder that
 * {@link #close()} deletes: PEM files for redis-server, PKCS12 stores for Java. Made by the openssl command (CI
 * installs it); the stores are written by Java, because openssl 3.0 cannot mark a certificate in a PKCS12 file as
 * trusted the way Java needs.
 */
public final class TestCertificates implements AutoCloseable {

    /** The password of both PKCS12 stores; a test value. */
    public static final String STORE_PASSWORD = "test-store-password";

    private static final String EC_KEY = "ec";
    private static final String CURVE = "ec_paramgen_curve:prime256v1";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new CA and certificates signed by it; the server certificate names 127.0.0.1 and localhost. */
    public static TestCertificates create() {
        return create("IP:127.0.0.1,DNS:localhost");
    }

    /** @param serverNames the server certificate's subjectAltName, for example {@code DNS:localhost} */
    public static TestCertificates create(String serverNames) {
        TestCertificates certificates;
        try {
            certificates = new TestCertificates(Files.createTempDirectory("redis-tls"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        certificates.make(serverNames);
        return certificates;
    }

    private void make(String serverNames) {
        openssl("req", "-x509", "-newkey", EC_KEY, "-pkeyopt", CURVE, "-nodes", "-days", "2",
                "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=reliable-redis test CA " + dir.getFileName(),
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        signed("server", serverNames);
        signed("client", "DNS:client");
        try {
            KeyStore trust = emptyStore();
            trust.setCertificateEntry("ca", certificate(caCert()));
            save(trust, truststore());
            KeyStore client = emptyStore();
            client.setKeyEntry("client", privateKey(dir.resolve("client.key")), STORE_PASSWORD.toCharArray(),
                    new Certificate[] {certificate(dir.resolve("client.crt")), certificate(caCert())});
            save(client, clientKeystore());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key and a leaf certificate for these names, signed by the CA (openssl 3's req -x509 -CA). */
    private void signed(String name, String subjectAltName) {
        openssl("req", "-x509", "-CA", "ca.crt", "-CAkey", "ca.key", "-newkey", EC_KEY, "-pkeyopt", CURVE, "-nodes",
                "-days", "2", "-keyout", name + ".key", "-out", name + ".crt", "-subj", "/CN=" + name,
                "-addext", "subjectAltName=" + subjectAltName, "-addext", "basicConstraints=critical,CA:FALSE");
    }

    public Path caCert() {
        return dir.resolve("ca.crt");
    }

    public Path serverCert() {
        return dir.resolve("server.crt");
    }

    /** The server's private key, unencrypted PEM. */
    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /** PKCS12 with the CA certificate as a trusted entry, {@link #STORE_PASSWORD}. */
    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** PKCS12 with the client's key and certificate chain, {@link #STORE_PASSWORD}. */
    public Path clientKeystore() {
        return dir.resolve("client.p12");
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void openssl(String... args) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Path output = dir.resolve("openssl.log");
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("openssl took more than 30 s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("openssl failed (" + process.exitValue() + "): " + command + "\n"
                                                + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("openssl is needed to make the test certificates (apt-get install openssl)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    private static void save(KeyStore store, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, STORE_PASSWORD.toCharArray());
        }
    }

    private static Certificate certificate(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** An unencrypted PKCS#8 PEM key, as openssl 3 writes it with -nodes. */
    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }
}

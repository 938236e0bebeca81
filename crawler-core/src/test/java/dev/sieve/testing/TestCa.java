package dev.sieve.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A private certificate authority made for a test by the {@code openssl} command in a directory
 * of its own, and the server certificates it issues: valid, expired, or for another name. Keys
 * are P-256, files PEM. Under CI ({@code CI=true}) a missing {@code openssl} fails the test;
 * elsewhere it skips it, saying why.
 */
public final class TestCa {
  private final Path dir;
  private int serial = 1;

  /** A server certificate: its key and certificate files (PEM), and the CA's. */
  public record Issued(Path key, Path cert, Path ca) {
    /** An SSL context serving this certificate, for mockwebserver3. */
    public SSLContext serverContext() throws IOException, GeneralSecurityException {
      String pem = Files.readString(key, StandardCharsets.US_ASCII);
      byte[] der = Base64.getMimeDecoder().decode(pem
          .replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").strip());
      PrivateKey privateKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
      List<Certificate> chain = new ArrayList<>();
      for (Path file : List.of(cert, ca)) {
        try (var in = Files.newInputStream(file)) {
          chain.add(CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", privateKey, new char[0], chain.toArray(new Certificate[0]));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    }
  }

  private TestCa(Path dir) {
    this.dir = dir;
  }

  /**
   * A new CA in {@code dir} (which must exist).
   *
   * @throws IOException if openssl fails, with its output
   */
  public static TestCa create(Path dir) throws IOException, InterruptedException {
    requireOpenssl();
    TestCa ca = new TestCa(dir);
    ca.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Sieve Test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
    return ca;
  }

  /** The CA's certificate (PEM): the anchor a client adds with {@code --ca-cert}. */
  public Path caCert() {
    return dir.resolve("ca.pem");
  }

  /** A certificate for {@code localhost} and 127.0.0.1, valid today. */
  public Issued issue(String name) throws IOException, InterruptedException {
    return issue(name, "DNS:localhost,IP:127.0.0.1", 2);
  }

  /**
   * A certificate named {@code name} (files {@code name.key}, {@code name.pem}) for the subject
   * alternative names {@code sans} (openssl's syntax), valid from now for {@code days} days: -1
   * makes one that expired yesterday.
   */
  public Issued issue(String name, String sans, int days) throws IOException, InterruptedException {
    Path ext = dir.resolve(name + ".ext");
    Files.writeString(ext, "subjectAltName=" + sans + "\nextendedKeyUsage=serverAuth\n");
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
    openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-set_serial", Integer.toString(++serial), "-days", Integer.toString(days),
        "-extfile", ext.toString(), "-out", name + ".pem");
    return new Issued(dir.resolve(name + ".key"), dir.resolve(name + ".pem"), caCert());
  }

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Path log = dir.resolve("openssl.log");
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("openssl " + args[0] + " failed: " + Files.readString(log));
    }
  }

  /** Fails (CI) or skips (elsewhere) the calling test when openssl is not on the PATH. */
  public static void requireOpenssl() {
    if (RedisServers.onPath("openssl")) {
      return;
    }
    String message = "openssl is needed to make the test's certificates: install it"
        + " (apt-get install -y openssl; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
  }
}

package dev.sieve.bench;

import dev.sieve.serve.access.Access;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * The transport of {@code bench serve}: plaintext, or TLS with a self-signed EC P-256
 * certificate for 127.0.0.1 made for the run by the JDK's {@code keytool} and written as the PEM
 * files {@code serve --tls-cert}/{@code --tls-key} read; the client trusts that certificate only.
 */
final class BenchTls {
  static final BenchTls PLAINTEXT = new BenchTls(Access.open(), InsecureChannelCredentials.create());

  private static final char[] PASSWORD = "bench-run".toCharArray();

  private final Access access;
  private final ChannelCredentials client;

  private BenchTls(Access access, ChannelCredentials client) {
    this.access = access;
    this.client = client;
  }

  /** What the bench's serve runs with. */
  Access access() {
    return access;
  }

  /** What the bench's client channels connect with. */
  ChannelCredentials client() {
    return client;
  }

  /**
   * A certificate and key made in {@code dir} (which must exist; it and they are deleted when the
   * JVM exits), and the access serving them.
   *
   * @throws IOException if keytool fails (its output in the message) or the files cannot be made
   */
  static BenchTls selfSigned(Path dir) throws IOException, InterruptedException {
    Path store = dir.resolve("bench-tls.p12");
    Path cert = dir.resolve("bench-tls.pem");
    Path key = dir.resolve("bench-tls.key");
    for (Path path : new Path[] {dir, store, cert, key}) {
      path.toFile().deleteOnExit();
    }
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "serve",
        "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
        "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", new String(PASSWORD))
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(keytool + " failed: " + output.strip());
    }
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, PASSWORD);
      Files.writeString(cert, pem("CERTIFICATE", keys.getCertificate("serve").getEncoded()));
      // serve refuses a key its group or others may read: made owner-only before written.
      Files.deleteIfExists(key);
      if (Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null) {
        Files.createFile(key, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")));
      }
      Files.writeString(key, pem("PRIVATE KEY", keys.getKey("serve", PASSWORD).getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + store + ": " + e.getMessage(), e);
    }
    Access access = Access.builder().tlsCert(cert).tlsKey(key).build();
    return new BenchTls(access, TlsChannelCredentials.newBuilder().trustManager(cert.toFile())
        .build());
  }

  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}

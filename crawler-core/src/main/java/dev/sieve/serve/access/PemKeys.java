package dev.sieve.serve.access;

import dev.sieve.settings.SecretFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;

/**
 * A server's TLS identity from PEM files: its certificate chain (the server's certificate first)
 * and its unencrypted PKCS#8 private key ({@code BEGIN PRIVATE KEY}: RSA, EC or Ed25519), as
 * {@code openssl req -newkey ... -nodes} writes them, the key readable by its owner only.
 */
final class PemKeys {
  private static final Pattern PKCS8 = Pattern.compile(
      "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

  private PemKeys() {}

  /**
   * Key managers presenting the chain of {@code certFile} with the key of {@code keyFile}.
   *
   * @throws IllegalArgumentException naming --tls-cert or --tls-key and the file that cannot be
   *     read, holds no certificate or key of a known kind, or (the key) may be read by its group
   *     or others
   */
  static KeyManager[] load(Path certFile, Path keyFile) {
    List<? extends Certificate> chain = certificates(certFile);
    PrivateKey key = privateKey(keyFile);
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("serve", key, new char[0], chain.toArray(new Certificate[0]));
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
      return keys.getKeyManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("--tls-key (" + keyFile + ") does not match --tls-cert ("
          + certFile + "): " + e.getMessage());
    }
  }

  private static List<? extends Certificate> certificates(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      List<? extends Certificate> chain =
          List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("--tls-cert (" + file + ") holds no PEM certificate");
      }
      return chain;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("--tls-cert (" + file + ") does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException("--tls-cert (" + file + ") cannot be read: "
          + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("--tls-cert (" + file + ") is not a PEM certificate"
          + " file: " + e.getMessage());
    }
  }

  private static PrivateKey privateKey(Path file) {
    SecretFile.requireOwnerOnly("--tls-key", file);
    String pem;
    try {
      pem = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("--tls-key (" + file + ") does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException("--tls-key (" + file + ") cannot be read: "
          + e.getClass().getSimpleName());
    }
    Matcher m = PKCS8.matcher(pem);
    if (!m.find()) {
      throw new IllegalArgumentException("--tls-key (" + file + ") holds no unencrypted PKCS#8"
          + " key (BEGIN PRIVATE KEY); convert one with openssl pkcs8 -topk8 -nocrypt");
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1)));
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // Not this algorithm's key: try the next.
      }
    }
    throw new IllegalArgumentException("--tls-key (" + file + ") is not an RSA, EC or Ed25519"
        + " private key");
  }
}

package dev.sieve.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Which certificate authorities a TLS connection trusts: the system's (the JDK's trust store),
 * plus the anchors of PEM files ({@code --ca-cert}), e.g. a private CA. Immutable; the files are
 * read once, when the settings are made.
 */
public final class TlsSettings {
  private static final TlsSettings SYSTEM = new TlsSettings(List.of(), List.of());

  private final List<Path> files;
  private final List<X509Certificate> anchors;

  private TlsSettings(List<Path> files, List<X509Certificate> anchors) {
    this.files = files;
    this.anchors = anchors;
  }

  /** The system's trust anchors only. */
  public static TlsSettings system() {
    return SYSTEM;
  }

  /**
   * The system's trust anchors and every certificate in the PEM {@code files}.
   *
   * @throws IllegalArgumentException naming the setting ({@code caCert}) and the file that cannot
   *     be read or holds no certificate
   */
  public static TlsSettings withCaCerts(List<Path> files) {
    if (files.isEmpty()) {
      return SYSTEM;
    }
    List<X509Certificate> anchors = new ArrayList<>();
    for (Path file : files) {
      anchors.addAll(read(file));
    }
    return new TlsSettings(List.copyOf(files), List.copyOf(anchors));
  }

  private static List<X509Certificate> read(Path file) {
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(file)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("caCert (" + file + ") does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException("caCert (" + file + ") cannot be read: " + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "caCert (" + file + ") is not a PEM certificate file: " + e.getMessage());
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("caCert (" + file + ") holds no PEM certificate");
    }
    List<X509Certificate> x509 = new ArrayList<>();
    for (Certificate certificate : certificates) {
      x509.add((X509Certificate) certificate);
    }
    return x509;
  }

  /** The PEM files whose certificates are trusted besides the system's. */
  public List<Path> caCerts() {
    return files;
  }

  /** Whether only the system's anchors are trusted: the JDK's defaults serve. */
  boolean isSystem() {
    return anchors.isEmpty();
  }

  /**
   * A trust manager for the system's anchors and the added ones; one PKIX validation over all of
   * them, so a chain to either kind is accepted and every other check (expiry, names) is the
   * JDK's. Also what a crawl trusts in a URL Frontier service over TLS.
   */
  public X509TrustManager trustManager() {
    try {
      TrustManagerFactory system = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      system.init((KeyStore) null);
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (X509Certificate anchor : x509(system.getTrustManagers()).getAcceptedIssuers()) {
        store.setCertificateEntry("system-" + n++, anchor);
      }
      for (X509Certificate anchor : anchors) {
        store.setCertificateEntry("ca-cert-" + n++, anchor);
      }
      TrustManagerFactory all = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      all.init(store);
      return x509(all.getTrustManagers());
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the JDK cannot make a trust manager: " + e.getMessage(), e);
    }
  }

  /** An SSL context trusting {@link #trustManager()}'s anchors. */
  static SSLContext context(X509TrustManager trust) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trust}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot make a TLS context: " + e.getMessage(), e);
    }
  }

  private static X509TrustManager x509(TrustManager[] managers) {
    for (TrustManager manager : managers) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new IllegalStateException("the JDK offers no X.509 trust manager");
  }
}

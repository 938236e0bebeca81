package dev.sieve.fetch;

import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Names why a TLS connection failed, in a short stable phrase for records: {@code certificate
 * expired}, {@code certificate not yet valid}, {@code hostname mismatch}, {@code unknown
 * authority}, {@code handshake failure} (no protocol or cipher in common), else {@code tls error}.
 */
final class TlsCause {
  private TlsCause() {}

  static String of(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CertificateExpiredException) {
        return "certificate expired";
      }
      if (t instanceof CertificateNotYetValidException) {
        return "certificate not yet valid";
      }
      if (t instanceof CertPathValidatorException v
          && v.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
        return "certificate expired";
      }
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof SSLPeerUnverifiedException && message.contains("not verified")
          || message.contains("no subject alternative") || message.contains("doesn't match")) {
        return "hostname mismatch"; // OkHttp's verifier, or the JDK's endpoint identification
      }
      if (message.contains("unable to find valid certification path")
          || message.contains("path does not chain") || message.contains("no trusted certificate")) {
        return "unknown authority";
      }
      if (message.contains("handshake_failure") || message.contains("protocol_version")
          || message.contains("no appropriate protocol")) {
        return "handshake failure";
      }
    }
    return "tls error";
  }
}

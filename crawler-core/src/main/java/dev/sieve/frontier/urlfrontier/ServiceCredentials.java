package dev.sieve.frontier.urlfrontier;

import dev.sieve.fetch.TlsSettings;
import dev.sieve.settings.SecretFile;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.util.List;

/**
 * How a crawl proves itself to a URL Frontier service and checks it: TLS trusting the system's
 * CAs and those of {@code --frontier-ca-cert}, and the bearer token of {@code
 * --frontier-token-file} sent as {@code authorization: Bearer TOKEN} with every call. The token
 * is never logged or put in a message.
 */
final class ServiceCredentials {
  private final ChannelCredentials channel;
  /** Null: no token. */
  private final String token;

  private ServiceCredentials(ChannelCredentials channel, String token) {
    this.channel = channel;
    this.token = token;
  }

  /**
   * The credentials for {@code address}: TLS when its scheme is {@code urlfrontier+tls}.
   *
   * @throws IllegalArgumentException naming --frontier-ca-cert or --frontier-token-file when its
   *     file is unusable (a token file others may read, or one without exactly one token line),
   *     or a CA file given for a plaintext address
   */
  static ServiceCredentials of(ServiceAddress address, Path caCert, Path tokenFile) {
    String token = tokenFile == null ? null : token(tokenFile);
    if (!address.tls()) {
      if (caCert != null) {
        throw new IllegalArgumentException("--frontier-ca-cert needs --frontier"
            + " urlfrontier+tls://HOST:PORT (" + address + " is plaintext)");
      }
      return new ServiceCredentials(InsecureChannelCredentials.create(), token);
    }
    TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
    if (caCert != null) {
      try {
        tls.trustManager(TlsSettings.withCaCerts(List.of(caCert)).trustManager());
      } catch (IllegalArgumentException e) {
        // TlsSettings names its setting caCert: this is the frontier's option.
        throw new IllegalArgumentException(e.getMessage().replaceFirst("^caCert",
            "--frontier-ca-cert"));
      }
    }
    return new ServiceCredentials(tls.build(), token);
  }

  private static String token(Path file) {
    List<SecretFile.Line> lines = SecretFile.read("--frontier-token-file", file);
    if (lines.size() != 1 || lines.get(0).text().split("\\s+").length != 1) {
      throw new IllegalArgumentException("--frontier-token-file (" + file + ") must hold one"
          + " line: the token (and # comments)");
    }
    return lines.get(0).text();
  }

  ChannelCredentials channel() {
    return channel;
  }

  /** The interceptor adding the token to each call's metadata; none without a token. */
  ClientInterceptor[] interceptors() {
    if (token == null) {
      return new ClientInterceptor[0];
    }
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
        "Bearer " + token);
    return new ClientInterceptor[] {MetadataUtils.newAttachHeadersInterceptor(headers)};
  }
}

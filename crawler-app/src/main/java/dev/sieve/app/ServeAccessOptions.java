package dev.sieve.app;

import dev.sieve.serve.access.Access;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code serve}'s TLS, token and network options, for its gRPC port and its metrics endpoint
 * alike (docs/serve-security.md).
 */
final class ServeAccessOptions {
  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "Serve gRPC and metrics over TLS with this PEM certificate chain (the server's"
          + " own first); needs --tls-key. Default: plaintext.")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The unencrypted PKCS#8 PEM private key of --tls-cert.")
  Path tlsKey;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Require a bearer token of every call and scrape (authorization: Bearer"
          + " TOKEN): lines 'read TOKEN' (list, count, stats) or 'write TOKEN' (every call), #"
          + " comments; the file must be readable by its owner only. Default: no tokens.")
  Path tokenFile;

  @Option(names = "--allow-insecure-from", paramLabel = "CIDR[,CIDR...]",
      description = "Only these networks may connect (others are closed before any call); with"
          + " it serve may listen beyond loopback without TLS and tokens. Default: every address"
          + " (loopback only, unless TLS and tokens).")
  String allowInsecureFrom;

  /** @throws IllegalArgumentException naming the option or file that is bad */
  Access access() {
    return Access.builder().tlsCert(tlsCert).tlsKey(tlsKey).tokenFile(tokenFile)
        .allowInsecureFrom(allowInsecureFrom).build();
  }
}

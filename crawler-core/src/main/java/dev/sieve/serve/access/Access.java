package dev.sieve.serve.access;

import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.TlsServerCredentials;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;

/**
 * Who may reach {@code serve}'s gRPC and metrics listeners and what they may do: TLS with a PEM
 * certificate and key ({@code --tls-cert}, {@code --tls-key}); bearer tokens from a file ({@code
 * --token-file}), each a read or a write token, required of every call once given; and the
 * networks that may connect at all ({@code --allow-insecure-from}), every other address closed
 * before its first call. Immutable; the files are read once, in {@link Builder#build()}.
 */
public final class Access {
  private static final Access OPEN = new Access(null, null, List.of());

  /** Null: plaintext. */
  private final KeyManager[] keys;
  /** Null: no token needed. */
  private final Tokens tokens;
  /** Empty: every address may connect. */
  private final List<Cidr> insecureFrom;

  private Access(KeyManager[] keys, Tokens tokens, List<Cidr> insecureFrom) {
    this.keys = keys;
    this.tokens = tokens;
    this.insecureFrom = insecureFrom;
  }

  /** Plaintext, no tokens, every address: for loopback only. */
  public static Access open() {
    return OPEN;
  }

  public static Builder builder() {
    return new Builder();
  }

  public boolean tls() {
    return keys != null;
  }

  public boolean tokensRequired() {
    return tokens != null;
  }

  /** The networks of {@code --allow-insecure-from} as given; empty when every address may connect. */
  public List<String> insecureNetworks() {
    return insecureFrom.stream().map(Cidr::toString).toList();
  }

  /**
   * Null when listening on {@code host} is safe with this access: a loopback address, or TLS and
   * tokens, or networks named by --allow-insecure-from; else the one-line refusal, naming {@code
   * option} (the listener's host option) and the options that would make it safe.
   */
  public String exposure(String option, String host) {
    if ((tls() && tokensRequired()) || !insecureFrom.isEmpty() || loopback(host)) {
      return null;
    }
    return option + " " + host + " is not a loopback address: listening there needs TLS and tokens"
        + " (--tls-cert with --tls-key, and --token-file), or --allow-insecure-from CIDR[,CIDR...]"
        + " naming the networks allowed to connect without them";
  }

  private static boolean loopback(String host) {
    try {
      for (InetAddress address : InetAddress.getAllByName(host.strip())) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      // Binding fails with its own message.
      return true;
    }
  }

  /**
   * The gRPC server's transport security: TLS with the PEM identity, or plaintext; behind a gate
   * that closes each connection from outside --allow-insecure-from as it is accepted, before any
   * handshake or call, counting each in {@code counts} ({@code access.refused_connections}).
   */
  public ServerCredentials credentials(Consumer<String> counts) {
    ServerCredentials transport = keys == null ? InsecureServerCredentials.create()
        : TlsServerCredentials.newBuilder().keyManager(keys).build();
    return insecureFrom.isEmpty() ? transport
        : AddressGate.guard(transport, insecureFrom, counts);
  }

  /** The JDK's TLS context with the PEM identity, for the metrics endpoint; null without TLS. */
  public SSLContext sslContext() {
    if (keys == null) {
      return null;
    }
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no TLS context", e);
    }
  }

  /**
   * The interceptor checking each call's bearer token against its RPC's {@link Role}, counting
   * refusals in {@code counts} ({@code unauthenticated}, {@code permission_denied}); one that
   * lets all through when no token file was given.
   */
  public ServerInterceptor callCheck(Consumer<String> counts) {
    return tokens == null ? Access::through : new TokenCheck(tokens, counts);
  }

  private static <Q, A> ServerCall.Listener<Q> through(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    return next.startCall(call, headers);
  }

  /** Whether {@code address} may connect: always, unless --allow-insecure-from names networks. */
  public boolean admits(InetAddress address) {
    return insecureFrom.isEmpty() || admits(insecureFrom, address);
  }

  static boolean admits(List<Cidr> networks, InetAddress address) {
    for (Cidr network : networks) {
      if (network.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a request with this {@code Authorization} header value may read (scrape metrics):
   * any token of the file, read or write; always when no token file was given.
   */
  public boolean mayRead(String authorization) {
    if (tokens == null) {
      return true;
    }
    String token = Tokens.bearer(authorization);
    return token != null && tokens.role(token).isPresent();
  }

  /** Builds {@link Access}; by default open (plaintext, no tokens, every address). */
  public static final class Builder {
    private Path tlsCert;
    private Path tlsKey;
    private Path tokenFile;
    private String insecureFrom;

    private Builder() {}

    /** The server's certificate chain, PEM, its own first. */
    public Builder tlsCert(Path tlsCert) {
      this.tlsCert = tlsCert;
      return this;
    }

    /** The certificate's private key, unencrypted PKCS#8 PEM. */
    public Builder tlsKey(Path tlsKey) {
      this.tlsKey = tlsKey;
      return this;
    }

    /** Lines {@code read TOKEN} or {@code write TOKEN}; the file readable by its owner only. */
    public Builder tokenFile(Path tokenFile) {
      this.tokenFile = tokenFile;
      return this;
    }

    /** {@code CIDR[,CIDR...]}: only these networks may connect, without TLS or tokens if need be. */
    public Builder allowInsecureFrom(String networks) {
      this.insecureFrom = networks;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the option whose value or file is bad (a token
     *     file's message names the line, never a token)
     */
    public Access build() {
      if ((tlsCert == null) != (tlsKey == null)) {
        throw new IllegalArgumentException("--tls-cert and --tls-key go together: give both");
      }
      List<Cidr> networks = new ArrayList<>();
      if (insecureFrom != null) {
        for (String network : insecureFrom.split(",", -1)) {
          networks.add(Cidr.parse("--allow-insecure-from", network));
        }
      }
      KeyManager[] keys = tlsCert == null ? null : PemKeys.load(tlsCert, tlsKey);
      Tokens tokens = tokenFile == null ? null : Tokens.load(tokenFile);
      return keys == null && tokens == null && networks.isEmpty() ? OPEN
          : new Access(keys, tokens, List.copyOf(networks));
    }
  }
}

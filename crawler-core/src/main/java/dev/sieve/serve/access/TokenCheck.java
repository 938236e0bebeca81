package dev.sieve.serve.access;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends every call without a known bearer token ({@code authorization: Bearer TOKEN}) with
 * UNAUTHENTICATED, and a read token's call of a write RPC with PERMISSION_DENIED, before the
 * service sees it. Each refusal is counted by its code's name ({@code unauthenticated}, {@code
 * permission_denied}) and logged at WARN the first time for each code and RPC (the caller's
 * address, never the token), DEBUG after.
 */
final class TokenCheck implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final Logger log = LoggerFactory.getLogger(TokenCheck.class);

  private final Tokens tokens;
  private final Consumer<String> counts;
  private final ConcurrentHashMap<String, Boolean> warned = new ConcurrentHashMap<>();

  TokenCheck(Tokens tokens, Consumer<String> counts) {
    this.tokens = tokens;
    this.counts = counts;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    String method = call.getMethodDescriptor().getBareMethodName();
    String token = Tokens.bearer(headers.get(AUTHORIZATION));
    Optional<Role> role = token == null ? Optional.empty() : tokens.role(token);
    if (role.isEmpty()) {
      return refuse(call, Status.UNAUTHENTICATED.withDescription(method + ": "
          + (token == null ? "no bearer token (authorization: Bearer TOKEN)"
              : "the bearer token is not one of --token-file's")));
    }
    Role needed = RpcRoles.needed(method);
    if (!role.get().allows(needed)) {
      return refuse(call, Status.PERMISSION_DENIED.withDescription(method
          + " needs a write token; this one may only read"));
    }
    return next.startCall(call, headers);
  }

  private <Q> ServerCall.Listener<Q> refuse(ServerCall<Q, ?> call, Status status) {
    String code = status.getCode().name().toLowerCase(Locale.ROOT);
    counts.accept(code);
    Object peer = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    if (warned.putIfAbsent(status.getDescription(), Boolean.TRUE) == null) {
      log.warn("{} from {} (further ones logged at DEBUG)", status.getDescription(), peer);
    } else {
      log.debug("{} from {}", status.getDescription(), peer);
    }
    call.close(status, new Metadata());
    return new ServerCall.Listener<>() { };
  }
}

package dev.sieve.app;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.sieve.serve.access.Access;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * The metrics endpoint's door: a request from outside --allow-insecure-from is answered 403 and
 * counted as {@code metrics.refused_connections}; one without a token of --token-file ({@code
 * Authorization: Bearer TOKEN}, read or write) 401, counted as {@code metrics.unauthenticated}.
 */
final class ScrapeAuthenticator extends Authenticator {
  private final Access access;
  private final Consumer<String> refusals;

  ScrapeAuthenticator(Access access, Consumer<String> refusals) {
    this.access = access;
    this.refusals = refusals;
  }

  @Override
  public Result authenticate(HttpExchange exchange) {
    InetSocketAddress peer = exchange.getRemoteAddress();
    if (peer == null || peer.getAddress() == null || !access.admits(peer.getAddress())) {
      refusals.accept("metrics.refused_connections");
      return new Failure(403);
    }
    if (!access.mayRead(exchange.getRequestHeaders().getFirst("Authorization"))) {
      refusals.accept("metrics.unauthenticated");
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
      return new Failure(401);
    }
    return new Success(new HttpPrincipal("scraper", "metrics"));
  }
}

package dev.sieve.serve.access;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes each connection from an address outside the allowed networks as soon as its HTTP/2
 * handshake is read, before any call on it reaches the service. Each is counted as {@code
 * access.refused_connections} and logged at WARN the first time, DEBUG after.
 */
final class AddressFilter extends ServerTransportFilter {
  /** What the connection is closed with; gRPC logs it at FINE only. */
  static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  private static final Logger log = LoggerFactory.getLogger(AddressFilter.class);

  private final List<Cidr> allowed;
  private final Consumer<String> counts;
  private volatile boolean warned;

  AddressFilter(List<Cidr> allowed, Consumer<String> counts) {
    this.allowed = allowed;
    this.counts = counts;
  }

  @Override
  public Attributes transportReady(Attributes attributes) {
    SocketAddress peer = attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    if (peer instanceof InetSocketAddress inet && inet.getAddress() != null
        && Access.admits(allowed, inet.getAddress())) {
      return attributes;
    }
    counts.accept("access.refused_connections");
    String message = "connection from " + peer + " closed: outside --allow-insecure-from "
        + allowed;
    if (!warned) {
      warned = true;
      log.warn("{} (further ones logged at DEBUG)", message);
    } else {
      log.debug(message);
    }
    throw new Refused(message);
  }
}

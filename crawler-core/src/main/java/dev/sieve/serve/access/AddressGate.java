package dev.sieve.serve.access;

import io.grpc.ServerCredentials;
import io.grpc.internal.ObjectPool;
import io.grpc.netty.shaded.io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.shaded.io.grpc.netty.InternalNettyServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.util.AsciiString;
import io.grpc.netty.shaded.io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes each accepted connection from an address outside the allowed networks before it reads a
 * byte: the first handler of the connection's pipeline, put there by the server credentials, so
 * no HTTP/2 handshake, TLS handshake or call happens on it (the client sees UNAVAILABLE). An
 * admitted connection goes on to the wrapped credentials' negotiation (plaintext or TLS). Each
 * refusal is counted as {@code access.refused_connections} and logged at WARN the first time for
 * each source address (the first {@value #WARNED_ADDRESSES} addresses; every one at DEBUG).
 *
 * <p>gRPC offers no public hook on an accepted connection; this one goes through grpc-netty's
 * {@code Internal*} negotiator API, which may change with a gRPC upgrade (ServeAccessIT tells).
 */
final class AddressGate implements InternalProtocolNegotiator.ProtocolNegotiator {
  private static final Logger log = LoggerFactory.getLogger(AddressGate.class);
  /** Source addresses whose first refusal is a WARN; past them, memory stays bounded. */
  static final int WARNED_ADDRESSES = 100;

  private final InternalProtocolNegotiator.ProtocolNegotiator next;
  private final List<Cidr> allowed;
  private final Consumer<String> counts;
  private final Set<InetAddress> warned;

  private AddressGate(InternalProtocolNegotiator.ProtocolNegotiator next, List<Cidr> allowed,
      Consumer<String> counts, Set<InetAddress> warned) {
    this.next = next;
    this.allowed = allowed;
    this.counts = counts;
    this.warned = warned;
  }

  /** {@code credentials} behind the gate: only {@code allowed} networks reach their handshake. */
  static ServerCredentials guard(ServerCredentials credentials, List<Cidr> allowed,
      Consumer<String> counts) {
    InternalProtocolNegotiator.ServerFactory inner =
        InternalNettyServerCredentials.toNegotiator(credentials);
    Set<InetAddress> warned = ConcurrentHashMap.newKeySet();
    return InternalNettyServerCredentials.create(new InternalProtocolNegotiator.ServerFactory() {
      @Override
      public InternalProtocolNegotiator.ProtocolNegotiator newNegotiator(
          ObjectPool<? extends Executor> offloadExecutorPool) {
        return new AddressGate(inner.newNegotiator(offloadExecutorPool), allowed, counts, warned);
      }
    });
  }

  @Override
  public AsciiString scheme() {
    return next.scheme();
  }

  @Override
  public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
    ChannelHandler admitted = next.newHandler(grpcHandler);
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void handlerAdded(ChannelHandlerContext ctx) {
        // The connection is accepted and active already: decide before anything is read.
        SocketAddress peer = ctx.channel().remoteAddress();
        if (peer instanceof InetSocketAddress inet && inet.getAddress() != null
            && Access.admits(allowed, inet.getAddress())) {
          ctx.pipeline().replace(this, null, admitted);
        } else {
          refuse(peer);
          ctx.close();
        }
      }

      @Override
      public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        // The negotiation's start on a refused connection: it ends here.
      }

      @Override
      public void channelRead(ChannelHandlerContext ctx, Object message) {
        ReferenceCountUtil.release(message);
      }
    };
  }

  private void refuse(SocketAddress peer) {
    counts.accept("access.refused_connections");
    String message = "connection from " + peer + " closed: outside --allow-insecure-from "
        + allowed;
    InetAddress address = peer instanceof InetSocketAddress inet ? inet.getAddress() : null;
    if (address != null && warned.size() < WARNED_ADDRESSES && warned.add(address)) {
      log.warn("{} (further ones from this address are logged at DEBUG; all are counted in"
          + " sieve_serve_refused_connections_total)", message);
    } else {
      log.debug(message);
    }
  }

  @Override
  public void close() {
    next.close();
  }
}

package dev.sieve.serve.limits;

import dev.sieve.frontier.queue.Counters;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds the calls open at once: {@link ServeLimits#maxCallsPerConnection} on one connection and
 * {@link ServeLimits#maxOpenCalls} in all. A call past either is closed at once with
 * RESOURCE_EXHAUSTED naming the option; a call counts until it completes or is cancelled (its
 * client went away), so streams a client opened and abandoned hold their places only while its
 * connection lives. The calls open now are the counter {@link #OPEN} (GetStats's {@code
 * service.calls.open}, the asking call included). Thread-safe.
 */
public final class CallLimits implements ServerInterceptor {
  /** The counter of calls open now. */
  public static final String OPEN = "calls.open";

  private final ServeLimits limits;
  private final Rejections rejections;
  private final java.util.concurrent.atomic.LongAdder gauge;
  /** Open calls by remote address (one per connection); guarded by this. */
  private final Map<SocketAddress, Integer> byConnection = new HashMap<>();
  private int open;

  public CallLimits(ServeLimits limits, Rejections rejections, Counters counters) {
    this.limits = limits;
    this.rejections = rejections;
    this.gauge = counters.adder(OPEN);
  }

  /** Calls open now. */
  public synchronized int open() {
    return open;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    SocketAddress peer = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    Refusal refusal = admit(peer);
    if (refusal != null) {
      String method = call.getMethodDescriptor().getBareMethodName();
      call.close(rejections.refuse(Status.RESOURCE_EXHAUSTED, refusal.kind(),
          method + " refused: " + refusal.message()).getStatus(), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        release(peer);
      }
    };
    try {
      return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
        @Override
        public void onComplete() {
          release.run();
          super.onComplete();
        }

        @Override
        public void onCancel() {
          release.run();
          super.onCancel();
        }
      };
    } catch (RuntimeException e) {
      release.run();
      throw e;
    }
  }

  private record Refusal(String kind, String message) {}

  /** Takes a place for a call from {@code peer}; returns why not if there is none. */
  private synchronized Refusal admit(SocketAddress peer) {
    int here = byConnection.getOrDefault(peer, 0);
    if (here >= limits.maxCallsPerConnection) {
      return new Refusal("calls_per_connection", here + " calls are open on this connection,"
          + " the most --max-calls-per-connection (" + limits.maxCallsPerConnection + ") allows");
    }
    if (open >= limits.maxOpenCalls) {
      return new Refusal("open_calls", open + " calls are open, the most --max-open-calls ("
          + limits.maxOpenCalls + ") allows");
    }
    byConnection.put(peer, here + 1);
    open++;
    gauge.increment();
    return null;
  }

  private synchronized void release(SocketAddress peer) {
    open--;
    gauge.decrement();
    byConnection.computeIfPresent(peer, (key, n) -> n <= 1 ? null : n - 1);
  }
}

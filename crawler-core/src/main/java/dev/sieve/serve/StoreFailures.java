package dev.sieve.serve;

import dev.sieve.frontier.queue.Counters;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.io.UncheckedIOException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store that fails (Redis unreachable, or failing a command) ends the call it failed with
 * {@code UNAVAILABLE} and the store's one-line message, counted as {@code unavailable} and logged
 * at WARN without a stack trace; the service goes on. PutURLs acks an item it could not apply
 * FAIL itself ({@link PutUrlsCall}), but a store that cannot be reached ends it UNAVAILABLE too
 * ({@link #unavailable}): nothing after the last ack was kept.
 */
final class StoreFailures implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(StoreFailures.class);
  private final Counters counters;

  StoreFailures(Counters counters) {
    this.counters = counters;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
      @Override
      public void onMessage(Q message) {
        try {
          super.onMessage(message);
        } catch (UncheckedIOException e) {
          fail(call, e);
        }
      }

      @Override
      public void onHalfClose() {
        try {
          super.onHalfClose();
        } catch (UncheckedIOException e) {
          fail(call, e);
        }
      }
    };
  }

  private void fail(ServerCall<?, ?> call, UncheckedIOException e) {
    Status status = unavailable(call.getMethodDescriptor().getBareMethodName(), e, counters);
    try {
      call.close(status, new Metadata());
    } catch (IllegalStateException closedAlready) {
      // The call had answered before the store failed: nothing left to tell the client.
    }
  }

  /**
   * The status a call of {@code rpc} ends with when the store failed ({@code e}), counted and
   * logged as above; for the streams that catch the failure themselves (PutURLs into a store
   * that batches, PutDiscovered), so that it ends them whichever thread met it.
   */
  static Status unavailable(String rpc, UncheckedIOException e, Counters counters) {
    counters.increment(Status.Code.UNAVAILABLE.name().toLowerCase(Locale.ROOT));
    log.warn("{}: {}", rpc, e.getCause().getMessage());
    return Status.UNAVAILABLE.withDescription(rpc + ": " + e.getCause().getMessage());
  }
}

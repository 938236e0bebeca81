package dev.sieve.serve.limits;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Ends each call whose client may still send (it has not half-closed) but has sent nothing for
 * {@link ServeLimits#streamIdleSeconds}: DEADLINE_EXCEEDED naming {@code --stream-idle-timeout},
 * counted as {@code limit.stream_idle}, so a stream a client opened and left frees its place
 * under --max-calls-per-connection and --max-open-calls. The service sees such a call cancelled,
 * as if its client had gone; what it sends on it after is dropped. {@link #sweep} finds the idle
 * calls; the server runs it every second. Time is injected. Thread-safe.
 */
public final class IdleStreams implements ServerInterceptor {
  /** The kind a closed idle stream is counted and logged under. */
  static final String KIND = "stream_idle";

  private final long timeoutMillis;
  private final Rejections rejections;
  private final LongSupplier millis;
  /** The calls whose client has not half-closed. */
  private final Set<Watched<?, ?>> open = ConcurrentHashMap.newKeySet();

  /** {@code millis}: the time now, in milliseconds (the service's clock). */
  public IdleStreams(ServeLimits limits, Rejections rejections, LongSupplier millis) {
    this.timeoutMillis = limits.streamIdleSeconds * 1000L;
    this.rejections = rejections;
    this.millis = millis;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    if (timeoutMillis == 0) {
      return next.startCall(call, headers);
    }
    Watched<Q, A> watched = new Watched<>(call, millis.getAsLong());
    open.add(watched);
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(watched, headers);
    } catch (RuntimeException e) {
      open.remove(watched);
      throw e;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        if (watched.touch(millis.getAsLong())) {
          super.onMessage(message);
        }
      }

      @Override
      public void onHalfClose() {
        open.remove(watched);
        if (!watched.closedIdle()) {
          super.onHalfClose();
        }
      }

      @Override
      public void onComplete() {
        open.remove(watched);
        if (watched.closedIdle()) {
          super.onCancel();
        } else {
          super.onComplete();
        }
      }

      @Override
      public void onCancel() {
        open.remove(watched);
        super.onCancel();
      }
    };
  }

  /** Ends the calls idle for the timeout or longer now; returns how many. */
  public int sweep() {
    long now = millis.getAsLong();
    int closed = 0;
    for (Watched<?, ?> call : open) {
      if (call.closeIdle(now)) {
        open.remove(call);
        closed++;
      }
    }
    return closed;
  }

  /** A call whose last inbound message is known, which this can end once and for all. */
  private final class Watched<Q, A> extends SimpleForwardingServerCall<Q, A> {
    /** Guarded by this. */
    private long lastMessage;
    /** Guarded by this: every send of the service is dropped once set. */
    private boolean closedIdle;

    Watched(ServerCall<Q, A> call, long now) {
      super(call);
      this.lastMessage = now;
    }

    synchronized boolean closedIdle() {
      return closedIdle;
    }

    /** A message came in at {@code now}; false if the call was ended idle (drop the message). */
    synchronized boolean touch(long now) {
      lastMessage = Math.max(lastMessage, now);
      return !closedIdle;
    }

    /** Ends the call if it has been idle for the timeout at {@code now}; true if it did. */
    synchronized boolean closeIdle(long now) {
      long idleMillis = now - lastMessage;
      if (closedIdle || idleMillis < timeoutMillis) {
        return false;
      }
      closedIdle = true;
      String method = getMethodDescriptor().getBareMethodName();
      Status status = rejections.refuse(Status.DEADLINE_EXCEEDED, KIND, method + " ended: its"
          + " client sent nothing on it for " + idleMillis / 1000 + " s, the most"
          + " --stream-idle-timeout (" + timeoutMillis / 1000 + ") allows").getStatus();
      super.close(status, new Metadata());
      return true;
    }

    @Override
    public synchronized void request(int messages) {
      if (!closedIdle) {
        super.request(messages);
      }
    }

    @Override
    public synchronized void sendHeaders(Metadata headers) {
      if (!closedIdle) {
        super.sendHeaders(headers);
      }
    }

    @Override
    public synchronized void sendMessage(A message) {
      if (!closedIdle) {
        super.sendMessage(message);
      }
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (!closedIdle) {
        super.close(status, trailers);
      }
    }
  }
}

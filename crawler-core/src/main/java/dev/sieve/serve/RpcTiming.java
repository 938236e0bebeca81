package dev.sieve.serve;

import dev.sieve.serve.FrontierServer.RpcListener;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Times every call from its start to its close and tells an {@link RpcListener}. A call that ends
 * without a close (the client vanished) is told as {@code CANCELLED} once.
 */
final class RpcTiming implements ServerInterceptor {
  private final RpcListener listener;
  private final LongSupplier nanoTime;

  RpcTiming(RpcListener listener, LongSupplier nanoTime) {
    this.listener = listener;
    this.nanoTime = nanoTime;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    String method = call.getMethodDescriptor().getBareMethodName();
    long start = nanoTime.getAsLong();
    AtomicBoolean told = new AtomicBoolean();
    Runnable cancelled = () -> tell(told, method, Status.Code.CANCELLED, start);
    ServerCall<Q, A> timed = new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        tell(told, method, status.getCode(), start);
        super.close(status, trailers);
      }
    };
    ServerCall.Listener<Q> inner = next.startCall(timed, headers);
    return new SimpleForwardingServerCallListener<>(inner) {
      @Override
      public void onCancel() {
        cancelled.run();
        super.onCancel();
      }
    };
  }

  private void tell(AtomicBoolean told, String method, Status.Code code, long start) {
    if (told.compareAndSet(false, true)) {
      listener.onCall(method, code.name(), nanoTime.getAsLong() - start);
    }
  }
}

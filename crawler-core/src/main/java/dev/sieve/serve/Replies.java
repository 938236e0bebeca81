package dev.sieve.serve;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Locale;

/** How the service answers a unary call: one value, or a counted error status. */
final class Replies {
  private Replies() {}

  static <T> void reply(StreamObserver<T> responses, T value) {
    responses.onNext(value);
    responses.onCompleted();
  }

  /** Ends the call with {@code status} and {@code message}, counted by the status's name. */
  static void fail(StreamObserver<?> responses, Counters counters, Status status, String message) {
    counters.increment(status.getCode().name().toLowerCase(Locale.ROOT));
    responses.onError(status.withDescription(message).asRuntimeException());
  }
}

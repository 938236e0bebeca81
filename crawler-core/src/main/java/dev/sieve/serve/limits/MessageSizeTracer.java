package dev.sieve.serve.limits;

import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;

/**
 * Counts and logs the calls the transport ended because a message was larger than {@link
 * ServeLimits#maxMessageBytes}: gRPC answers them RESOURCE_EXHAUSTED ("gRPC message exceeds
 * maximum size N") before any handler sees the message, so that it is never read whole. gRPC's
 * own report of it, a WARNING with a stack trace, is silenced: this one-line report replaces it.
 */
public final class MessageSizeTracer extends ServerStreamTracer.Factory {
  /** gRPC's logger of a message it could not deframe; held so that its level stays set. */
  private static final java.util.logging.Logger GRPC_DEFRAME_LOG = java.util.logging.Logger
      .getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");

  static {
    GRPC_DEFRAME_LOG.setLevel(java.util.logging.Level.SEVERE);
  }

  private final ServeLimits limits;
  private final Rejections rejections;

  public MessageSizeTracer(ServeLimits limits, Rejections rejections) {
    this.limits = limits;
    this.rejections = rejections;
  }

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    return new ServerStreamTracer() {
      @Override
      public void streamClosed(Status status) {
        String description = status.getDescription();
        if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED && description != null
            && description.contains("exceeds maximum size")) {
          rejections.counted("message_bytes", fullMethodName + " refused: a message larger than"
              + " --max-message-bytes (" + limits.maxMessageBytes + "): " + description);
        }
      }
    };
  }
}

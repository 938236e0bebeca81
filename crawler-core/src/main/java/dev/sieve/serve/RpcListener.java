package dev.sieve.serve;

/**
 * Told of each finished RPC, for latency monitoring. Called on gRPC's threads, concurrently:
 * implementations must be thread-safe and quick.
 */
@FunctionalInterface
public interface RpcListener {
  /** Tells nothing. */
  RpcListener NONE = (method, code, nanos) -> { };

  /**
   * An RPC finished.
   *
   * @param method the RPC's name as the API spells it ({@code PutURLs}, {@code GetURLs}…)
   * @param code its gRPC status code ({@code OK}, {@code INVALID_ARGUMENT}, {@code CANCELLED}…)
   * @param nanos from the call's start to its close (for a stream, the whole stream)
   */
  void onCall(String method, String code, long nanos);
}

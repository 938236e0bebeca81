package dev.sieve.serve;

import com.google.protobuf.InvalidProtocolBufferException;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.QueuedUrl;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Locale;

/**
 * Conversions between the API's messages and what the service keeps, and how a unary call is
 * answered: one value, or a counted error status.
 */
final class Protos {
  private Protos() {}

  /** A proto uint32 as a Java int: values past {@link Integer#MAX_VALUE} become that. */
  static int unsigned(int value) {
    return (int) Math.min(Integer.toUnsignedLong(value), Integer.MAX_VALUE);
  }

  /** A proto uint64 as a Java long: values past {@link Long#MAX_VALUE} become that. */
  static long unsigned64(long value) {
    return value < 0 ? Long.MAX_VALUE : value;
  }

  /** The client's metadata of {@code info} as kept in {@link QueuedUrl#metadata}; null if none. */
  static byte[] metadataOf(URLInfo info) {
    if (info.getMetadataCount() == 0) {
      return null;
    }
    return URLInfo.newBuilder().putAllMetadata(info.getMetadataMap()).build().toByteArray();
  }

  /** The URLInfo GetURLs hands out for {@code url} of crawl {@code crawlId}. */
  static URLInfo info(String crawlId, QueuedUrl url) {
    URLInfo.Builder info = URLInfo.newBuilder();
    if (url.metadata() != null) {
      try {
        info.mergeFrom(url.metadata());
      } catch (InvalidProtocolBufferException e) {
        // Written by metadataOf from a parsed message: it always parses.
        throw new IllegalStateException("stored metadata of " + url.url() + " does not parse", e);
      }
    }
    return info.setUrl(url.url()).setKey(url.key()).setCrawlID(crawlId).build();
  }

  /**
   * A known item: what GetURLStatus and ListURLs answer, with its refetch date (0: completed) and
   * its creation date (0 where the store does not know it).
   */
  static URLItem known(String crawlId, QueuedUrl url) {
    return URLItem.newBuilder()
        .setKnown(KnownURLItem.newBuilder()
            .setInfo(info(crawlId, url))
            .setRefetchableFromDate(FrontierTime.secondUp(url.refetchFrom())))
        .setCreationDate(FrontierTime.secondDown(url.created()))
        .build();
  }

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

package dev.sieve.serve.limits;

import dev.sieve.settings.Check;

/**
 * The limits that bound what clients can make {@code serve} hold: the size of one inbound
 * message, the crawls of the node and the queues of a crawl, the metadata of one URL, the calls
 * open at once, on one connection and in all, and how long a stream may stay idle. Immutable; validated once in {@link
 * Builder#build()}, with messages naming each limit's option. Each field's name is also the
 * {@code kind} a refusal is counted and logged under ({@link Rejections}).
 */
public final class ServeLimits {
  /** The largest inbound gRPC message; a PutURLs item is at most a URL and its metadata. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;
  public static final int DEFAULT_MAX_CRAWLS = 100;
  public static final int DEFAULT_MAX_QUEUES_PER_CRAWL = 100_000;
  public static final int DEFAULT_MAX_METADATA_ENTRIES = 100;
  public static final int DEFAULT_MAX_CALLS_PER_CONNECTION = 100;
  public static final int DEFAULT_MAX_OPEN_CALLS = 1_000;
  /** Seconds a client may leave a stream it may still send on without sending; 0: no limit. */
  public static final int DEFAULT_STREAM_IDLE_SECONDS = 300;

  public final int maxMessageBytes;
  public final int maxCrawls;
  public final int maxQueuesPerCrawl;
  public final int maxMetadataEntries;
  public final int maxCallsPerConnection;
  public final int maxOpenCalls;
  /** 0: streams may stay idle for ever. */
  public final int streamIdleSeconds;

  private ServeLimits(Builder b) {
    this.maxMessageBytes = b.maxMessageBytes;
    this.maxCrawls = b.maxCrawls;
    this.maxQueuesPerCrawl = b.maxQueuesPerCrawl;
    this.maxMetadataEntries = b.maxMetadataEntries;
    this.maxCallsPerConnection = b.maxCallsPerConnection;
    this.maxOpenCalls = b.maxOpenCalls;
    this.streamIdleSeconds = b.streamIdleSeconds;
  }

  /** Every limit at its default. */
  public static ServeLimits defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ServeLimits}; every limit has its default. */
  public static final class Builder {
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int maxCrawls = DEFAULT_MAX_CRAWLS;
    private int maxQueuesPerCrawl = DEFAULT_MAX_QUEUES_PER_CRAWL;
    private int maxMetadataEntries = DEFAULT_MAX_METADATA_ENTRIES;
    private int maxCallsPerConnection = DEFAULT_MAX_CALLS_PER_CONNECTION;
    private int maxOpenCalls = DEFAULT_MAX_OPEN_CALLS;
    private int streamIdleSeconds = DEFAULT_STREAM_IDLE_SECONDS;

    private Builder() {}

    public Builder maxMessageBytes(int maxMessageBytes) {
      this.maxMessageBytes = maxMessageBytes;
      return this;
    }

    public Builder maxCrawls(int maxCrawls) {
      this.maxCrawls = maxCrawls;
      return this;
    }

    public Builder maxQueuesPerCrawl(int maxQueuesPerCrawl) {
      this.maxQueuesPerCrawl = maxQueuesPerCrawl;
      return this;
    }

    public Builder maxMetadataEntries(int maxMetadataEntries) {
      this.maxMetadataEntries = maxMetadataEntries;
      return this;
    }

    public Builder maxCallsPerConnection(int maxCallsPerConnection) {
      this.maxCallsPerConnection = maxCallsPerConnection;
      return this;
    }

    public Builder maxOpenCalls(int maxOpenCalls) {
      this.maxOpenCalls = maxOpenCalls;
      return this;
    }

    public Builder streamIdleSeconds(int streamIdleSeconds) {
      this.streamIdleSeconds = streamIdleSeconds;
      return this;
    }

    /** @throws IllegalArgumentException naming the first bad limit by its option */
    public ServeLimits build() {
      Check.atLeast("--max-message-bytes", maxMessageBytes, 1_024);
      Check.positive("--max-crawls", maxCrawls);
      Check.positive("--max-queues-per-crawl", maxQueuesPerCrawl);
      Check.atLeast("--max-metadata-entries", maxMetadataEntries, 0);
      Check.positive("--max-calls-per-connection", maxCallsPerConnection);
      Check.positive("--max-open-calls", maxOpenCalls);
      Check.atLeast("--stream-idle-timeout", streamIdleSeconds, 0);
      return new ServeLimits(this);
    }
  }
}

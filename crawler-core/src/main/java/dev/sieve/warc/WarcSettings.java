package dev.sieve.warc;

import dev.sieve.settings.Check;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how a crawl is archived as WARC. Immutable; built with {@link #builder(Path)} and
 * validated once in {@link Builder#build()}. Each default is a constant here, read by the builder
 * and by the command line's option defaults.
 */
public final class WarcSettings {
  /** Default {@link Builder#maxFileBytes}: 1 GiB. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1L << 30;
  /** Default {@link Builder#prefix}. */
  public static final String DEFAULT_PREFIX = "sieve";
  /** Default {@link Builder#gzipLevel}: fast, see docs/benchmarks.md. */
  public static final int DEFAULT_GZIP_LEVEL = 1;
  /** Default {@link Builder#maxDigests}: the payload digests remembered for revisits. */
  public static final int DEFAULT_MAX_DIGESTS = 100_000;
  /** The smallest {@link Builder#maxFileBytes}. */
  public static final long MIN_FILE_BYTES = 16 * 1024;

  private static final Pattern NAME_PART = Pattern.compile("[A-Za-z0-9._]+(-[A-Za-z0-9._]+)*");

  final Path dir;
  final long maxFileBytes;
  final String prefix;
  final boolean dedupe;
  final boolean index;
  final int gzipLevel;
  final int maxDigests;
  final String software;
  final String host;
  final Map<String, String> info;

  private WarcSettings(Builder b) {
    this.dir = b.dir;
    this.maxFileBytes = b.maxFileBytes;
    this.prefix = b.prefix;
    this.dedupe = b.dedupe;
    this.index = b.index;
    this.gzipLevel = b.gzipLevel;
    this.maxDigests = b.maxDigests;
    this.software = b.software;
    this.host = b.host;
    this.info = Collections.unmodifiableMap(new LinkedHashMap<>(b.info));
  }

  /** Settings writing into {@code dir}, every other value at its default. */
  public static Builder builder(Path dir) {
    return new Builder(dir);
  }

  public Path dir() {
    return dir;
  }

  public long maxFileBytes() {
    return maxFileBytes;
  }

  public String prefix() {
    return prefix;
  }

  public boolean dedupe() {
    return dedupe;
  }

  public boolean index() {
    return index;
  }

  /** Archive settings; every value but the directory has a default. */
  public static final class Builder {
    private final Path dir;
    private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
    private String prefix = DEFAULT_PREFIX;
    private boolean dedupe = true;
    private boolean index;
    private int gzipLevel = DEFAULT_GZIP_LEVEL;
    private int maxDigests = DEFAULT_MAX_DIGESTS;
    private String software = "Sieve";
    private String host;
    private final Map<String, String> info = new LinkedHashMap<>();

    private Builder(Path dir) {
      this.dir = dir;
    }

    /** A file is closed and the next one begun once it reaches this size (default 1 GiB). */
    public Builder maxFileBytes(long maxFileBytes) {
      this.maxFileBytes = maxFileBytes;
      return this;
    }

    /** The first part of each file name (default {@value #DEFAULT_PREFIX}). */
    public Builder prefix(String prefix) {
      this.prefix = prefix;
      return this;
    }

    /** Write a body seen before as a revisit record (default true). */
    public Builder dedupe(boolean dedupe) {
      this.dedupe = dedupe;
      return this;
    }

    /** Write a CDXJ index beside each closed file (default false). */
    public Builder index(boolean index) {
      this.index = index;
      return this;
    }

    /** The deflate level of each record's gzip member, 1-9 (default 1). */
    public Builder gzipLevel(int gzipLevel) {
      this.gzipLevel = gzipLevel;
      return this;
    }

    /** How many payload digests are remembered for revisits (default 100 000). */
    public Builder maxDigests(int maxDigests) {
      this.maxDigests = maxDigests;
      return this;
    }

    /** The warcinfo {@code software} field, e.g. {@code Sieve/1.0}. */
    public Builder software(String software) {
      this.software = software;
      return this;
    }

    /** The host part of each file name (default this machine's name). */
    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /** Adds a warcinfo field (the crawl's settings, its robots policy, ...), in order. */
    public Builder info(String name, String value) {
      info.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Validates and returns the settings.
     *
     * @throws IllegalArgumentException naming the first invalid setting
     */
    public WarcSettings build() {
      if (dir == null) {
        throw new IllegalArgumentException("warc (null) must be a directory");
      }
      Check.atLeast("warcMaxSize", maxFileBytes, MIN_FILE_BYTES);
      if (prefix == null || !NAME_PART.matcher(prefix).matches()) {
        throw new IllegalArgumentException("warcPrefix (" + prefix
            + ") must be letters, digits, '.', '_' and inner '-'");
      }
      Check.between("gzipLevel", gzipLevel, 1, 9);
      Check.atLeast("maxDigests", maxDigests, 1);
      Check.notBlank("software", software);
      host = (host == null ? localHost() : host).replaceAll("[^A-Za-z0-9._]", "_");
      if (host.isEmpty()) {
        host = "localhost";
      }
      return new WarcSettings(this);
    }

    private static String localHost() {
      try {
        return java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException | SecurityException e) {
        return "localhost";
      }
    }
  }
}

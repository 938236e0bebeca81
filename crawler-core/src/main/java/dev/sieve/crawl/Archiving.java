package dev.sieve.crawl;

import dev.sieve.fetch.FetchResult;
import dev.sieve.frontier.LastFetch;
import dev.sieve.warc.WarcArchive;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The crawl's WARC archive when it keeps one ({@link CrawlConfig.Builder#warc}): every fetch's
 * exchange goes in, robots.txt's included, and a page's record learns where its response went.
 * Thread-safe. Its failures are {@link dev.sieve.warc.WarcException}s, which stop the crawl like
 * an output failure.
 */
final class Archiving implements AutoCloseable {
  /** Null when the crawl keeps no archive. */
  private final WarcArchive archive;

  private Archiving(WarcArchive archive) {
    this.archive = archive;
  }

  /** Opens the archive {@code config} asks for (recovering files a crash left open), or none. */
  static Archiving open(CrawlConfig config) {
    return new Archiving(config.warc == null ? null
        : WarcArchive.open(config.warc, config.clock, info(config)));
  }

  /**
   * Archives {@code result}'s exchange; {@code outcome}, if given, learns where it went. A {@code
   * 304} to a page's conditional refetch is a revisit referring to the page's last response.
   */
  void write(FetchResult result, Recorder.Outcome outcome) {
    if (archive == null) {
      return;
    }
    LastFetch last = outcome == null ? null : outcome.lease().last();
    var written = result.isNotModified() && last != null && last.hasValidator()
        ? archive.writeNotModified(result, LastFetches.recordId(last),
            last.recordDate() != null ? last.recordDate() : last.at())
        : archive.write(result);
    written.ifPresent(at -> {
      if (outcome != null) {
        outcome.archived(at.file(), at.offset(), at.responseId(), at.responseDate());
      }
    });
  }

  /** Forces what was archived to the disk: before each checkpoint. */
  void sync() {
    if (archive != null) {
      archive.sync();
    }
  }

  @Override
  public void close() {
    if (archive != null) {
      archive.close();
    }
  }

  /** The warcinfo fields describing the crawl: its robots policy and main settings. */
  static Map<String, String> info(CrawlConfig config) {
    Map<String, String> info = new LinkedHashMap<>();
    info.put("robots", config.robots.respect()
        ? "obey (robots.txt of each host, cached " + config.robots.ttl() + ")"
        : "ignore");
    info.put("http-header-user-agent", config.fetch.userAgent());
    info.put("isPartOf", config.seeds().size() + " seed(s), first " + config.seeds().get(0));
    info.put("description", "threads=" + config.threads
        + " max-pages=" + (config.maxPages == Long.MAX_VALUE ? "none" : config.maxPages)
        + " scope=" + config.scope.scope().name().toLowerCase(java.util.Locale.ROOT)
        + " max-depth=" + config.scope.maxDepth()
        + " max-body-bytes=" + config.fetch.maxBodyBytes()
        + " politeness-delay=" + config.frontier.politeness.delay().toMillis() + "ms"
        + " dedupe=" + config.warc.dedupe());
    return info;
  }
}

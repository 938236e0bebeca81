package dev.sieve.app;

import dev.sieve.warc.WarcSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for the WARC archive: where (none without {@code --warc}), file size and
 * names, compression, revisits of identical bodies, and the CDXJ index.
 */
final class WarcOptions {
  @Option(names = "--warc", paramLabel = "DIR",
      description = "Archive every fetch (robots.txt included) as WARC/1.1 files in DIR; files a crash left .open are cut at their last complete record on the next run.")
  Path dir;

  @Setting("warcMaxSize")
  @Option(names = "--warc-max-size", defaultValue = "" + WarcSettings.DEFAULT_MAX_FILE_BYTES, paramLabel = "BYTES",
      description = "A WARC file is closed and the next one begun before it passes this size (default ${DEFAULT-VALUE}, 1 GiB).")
  long maxSize;

  @Setting("warcPrefix")
  @Option(names = "--warc-prefix", defaultValue = WarcSettings.DEFAULT_PREFIX, paramLabel = "PREFIX",
      description = "First part of each WARC file's name, PREFIX-TIMESTAMP-SERIAL-HOST.warc.gz (default ${DEFAULT-VALUE}).")
  String prefix;

  @Setting("gzipLevel")
  @Option(names = "--warc-gzip-level", defaultValue = "" + WarcSettings.DEFAULT_GZIP_LEVEL, paramLabel = "N",
      description = "How each record is deflated: 1, Sieve's fast encoder (fixed Huffman codes); 2-9, zlib's levels: on HTML, files 20%% (2) to 30%% (6) smaller for 2x to 5x the CPU (default ${DEFAULT-VALUE}).")
  int gzipLevel;

  @Option(names = "--no-dedupe",
      description = "Write every body in full, never as a revisit record of an identical body archived before.")
  boolean noDedupe;

  @Option(names = "--warc-index", description = "Write a CDXJ index (NAME.cdxj) beside each closed WARC file.")
  boolean index;

  /**
   * The archive's settings, or null without {@code --warc}; {@code software} names the crawler
   * and its version in each file's warcinfo.
   *
   * @throws IllegalArgumentException naming the first invalid setting
   */
  WarcSettings settings(String software) {
    if (dir == null) {
      if (noDedupe || index) {
        throw new IllegalArgumentException(
            (index ? "--warc-index" : "--no-dedupe") + " (set) needs --warc DIR");
      }
      return null;
    }
    return WarcSettings.builder(dir)
        .maxFileBytes(maxSize)
        .prefix(prefix)
        .gzipLevel(gzipLevel)
        .dedupe(!noDedupe)
        .index(index)
        .software(software)
        .build();
  }
}

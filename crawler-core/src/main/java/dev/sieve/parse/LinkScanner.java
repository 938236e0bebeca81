package dev.sieve.parse;

/**
 * Finds the {@link PageLinks} of an HTML page given as bytes. Implementations are immutable and
 * thread-safe, and never throw for web input: a body that is not HTML yields few or no links.
 */
public interface LinkScanner {

  /**
   * Scans {@code body}, decoded with the charset named by {@code contentType} (nullable, e.g.
   * {@code "text/html; charset=ISO-8859-1"}) if it names a supported one, else with the one a BOM
   * or a {@code <meta>} in the first 5,120 bytes names, else UTF-8 (a BOM wins over the header).
   */
  PageLinks scan(byte[] body, String contentType);

  /** The streaming scanner: no DOM, one pass over the decoded text. The crawl's default. */
  static LinkScanner streaming() {
    return StreamLinkScanner.INSTANCE;
  }

  /** The reference scanner: Jsoup builds the page's DOM, which is then walked. */
  static LinkScanner dom() {
    return DomLinkScanner.INSTANCE;
  }
}

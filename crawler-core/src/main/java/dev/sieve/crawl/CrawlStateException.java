package dev.sieve.crawl;

/** The crawl's state directory cannot be used: the message names the file and the problem. */
public final class CrawlStateException extends RuntimeException {
  CrawlStateException(String message) {
    super(message);
  }

  CrawlStateException(String message, Throwable cause) {
    super(message, cause);
  }
}

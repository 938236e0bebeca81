package dev.sieve.frontier.state;

/** The crawl's state directory cannot be used: the message names the file and the problem. */
public final class CrawlStateException extends RuntimeException {
  CrawlStateException(String message) {
    super(message);
  }

  CrawlStateException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The cause of an I/O failure in a few words ("permission denied"), for a message naming the path. */
  static String cause(java.io.IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason() + (fs.getFile() == null ? "" : " (" + fs.getFile() + ")");
    }
    return e.getMessage();
  }
}

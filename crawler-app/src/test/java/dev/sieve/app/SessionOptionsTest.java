package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawl}'s session options refuse what they cannot send safely with a usage error naming
 * the option, never showing a value that may be a secret, before any output is written.
 */
class SessionOptionsTest {
  @TempDir Path dir;

  @Test
  void header_host_refusedNamingTheOption() throws IOException {
    assertThat(usageError("--header", "Host: example.com"))
        .contains("Invalid setting: --header (Host) is refused: the crawler sends each URL's own");
  }

  @Test
  void header_cookie_refusedWithoutItsValue() throws IOException {
    assertThat(usageError("--header", "Cookie: session=hunter2"))
        .contains("--header (Cookie) is refused").doesNotContain("hunter2");
  }

  @Test
  void header_hopByHop_refused() throws IOException {
    assertThat(usageError("--header", "Connection: close")).contains("--header (Connection) is refused: a hop-by-hop header");
  }

  @Test
  void authFile_readableByOthers_refusedNamingTheOptionAndFile() throws IOException {
    Path auth = Files.writeString(dir.resolve("auth.txt"), "https://example.com basic u:hunter2\n");
    Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-r-----"));

    assertThat(usageError("--auth-file", auth.toString()))
        .contains("--auth-file (" + auth + ") is readable by group or others (rw-r-----)")
        .doesNotContain("hunter2");
  }

  @Test
  void cookies_withNoCookies_refused() throws IOException {
    Path cookies = Files.writeString(dir.resolve("cookies.txt"), "");

    assertThat(usageError("--no-cookies", "--cookies", cookies.toString()))
        .contains("--cookies (" + cookies + ") needs the cookie jar, which is off");
  }

  private String usageError(String... args) throws IOException {
    return CrawlUsage.error(dir, args);
  }
}

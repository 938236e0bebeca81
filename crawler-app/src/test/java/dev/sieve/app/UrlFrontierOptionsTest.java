package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawl --frontier urlfrontier://…}: the options that do not go with a URL Frontier service
 * are usage errors naming them, before any output is written or the service is called.
 */
class UrlFrontierOptionsTest {
  @TempDir Path dir;

  @Test
  void status_isForRedisOnly() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--status"))
        .contains("--status needs --frontier redis://HOST:PORT");
  }

  @Test
  void hostBudget_isRefused() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--max-pages-per-host", "5"))
        .contains("Invalid setting: --max-pages-per-host (5) is not enforced by a URL Frontier service");
  }

  @Test
  void state_isRefused() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--state",
        dir.resolve("state").toString()))
        .contains("--state keeps a local frontier's state; a URL Frontier service keeps its own");
  }

  @Test
  void malformedServiceUri_namesTheOption() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://no-port"))
        .contains("--frontier (urlfrontier://no-port) must be urlfrontier://HOST:PORT");
  }

  @Test
  void serviceCredentials_withoutAService_orCaWithoutTls_areRefused() throws IOException {
    assertThat(usageError("--frontier-token-file", "t"))
        .contains("--frontier-token-file needs --frontier urlfrontier://HOST:PORT or"
            + " urlfrontier+tls://HOST:PORT");
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--frontier-ca-cert",
        "ca.pem")).contains("--frontier-ca-cert needs --frontier urlfrontier+tls://HOST:PORT");
  }

  private String usageError(String... args) throws IOException {
    return CrawlUsage.error(dir, args);
  }
}

package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Real pages (resources {@code corpus/links-sample.zip}: a deterministic sample of the
 * cppreference and Rust documentation, see its NOTICE and bench/make-links-sample.sh): on each,
 * the streaming scanner finds the same links, base and robots flags as the Jsoup DOM. The full
 * corpora are compared by {@code crawler.jar bench links}.
 */
class LinkScannerCorpusTest {

  private static List<Map.Entry<String, byte[]>> pages() throws IOException {
    List<Map.Entry<String, byte[]>> pages = new ArrayList<>();
    try (InputStream in = LinkScannerCorpusTest.class.getResourceAsStream(
            "/corpus/links-sample.zip");
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        if (entry.getName().endsWith(".html")) {
          pages.add(Map.entry(entry.getName(), zip.readAllBytes()));
        }
      }
    }
    return pages;
  }

  @TestFactory
  Stream<DynamicTest> scan_samplePage_sameLinksAsDom() throws IOException {
    return pages().stream().map(page -> DynamicTest.dynamicTest(page.getKey(), () -> {
      PageLinks dom = LinkScanner.dom().scan(page.getValue(), null);
      PageLinks streaming = LinkScanner.streaming().scan(page.getValue(), null);

      assertThat(streaming.difference(dom)).as(page.getKey()).isEmpty();
    }));
  }

  @Test
  void sample_holdsHundredsOfPagesFromBothCorporaWithLinks() throws IOException {
    List<Map.Entry<String, byte[]>> pages = pages();
    long links = pages.stream()
        .mapToLong(p -> LinkScanner.streaming().scan(p.getValue(), null).links().size())
        .sum();

    assertThat(pages).hasSizeGreaterThan(300);
    assertThat(pages).anyMatch(p -> p.getKey().startsWith("cppreference/"));
    assertThat(pages).anyMatch(p -> p.getKey().startsWith("rust-doc/"));
    assertThat(links).isGreaterThan(10_000);
  }
}

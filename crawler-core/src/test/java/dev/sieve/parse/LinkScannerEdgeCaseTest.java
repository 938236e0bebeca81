package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Hand-made pages, one per behaviour of HTML parsing that decides which links a page has (in
 * resources {@code dev/sieve/parse/edge}): the streaming scanner must find exactly what the Jsoup
 * DOM finds, and both what {@code expected.txt} records.
 */
class LinkScannerEdgeCaseTest {

  private static final Path DIR = edgeDir();

  private static Path edgeDir() {
    try {
      return Path.of(LinkScannerEdgeCaseTest.class.getResource("edge").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Path> pages() throws IOException {
    try (Stream<Path> files = Files.list(DIR)) {
      return files.filter(f -> f.toString().endsWith(".html")).sorted().toList();
    }
  }

  /** content-types.txt: "file: Content-Type" lines; pages not listed are scanned without one. */
  private static Map<String, String> contentTypes() throws IOException {
    Map<String, String> types = new HashMap<>();
    for (String line : Files.readAllLines(DIR.resolve("content-types.txt"))) {
      int colon = line.indexOf(": ");
      if (!line.startsWith("#") && colon > 0) {
        types.put(line.substring(0, colon), line.substring(colon + 2));
      }
    }
    return types;
  }

  /** expected.txt: per "== file" block, the lines {@link #describe} writes. */
  private static Map<String, List<String>> expected() throws IOException {
    Map<String, List<String>> blocks = new HashMap<>();
    List<String> block = null;
    for (String line : Files.readAllLines(DIR.resolve("expected.txt"), StandardCharsets.UTF_8)) {
      if (line.startsWith("== ")) {
        block = new ArrayList<>();
        blocks.put(line.substring(3), block);
      } else if (block != null && !line.isBlank()) {
        block.add(line);
      }
    }
    return blocks;
  }

  private static List<String> describe(PageLinks page) {
    List<String> lines = new ArrayList<>();
    lines.add("base " + (page.base() == null ? "-" : escape(page.base())));
    lines.add("robots " + page.robotsNofollow() + "/" + page.robotsNoindex());
    for (PageLinks.Link link : new LinkedHashSet<>(page.links())) {
      String nofollow = link.relNofollow() ? " nofollow" : "";
      lines.add(link.kind() + " " + escape(link.target()) + nofollow);
    }
    return lines;
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        case '\n' -> out.append("\\n");
        case '\\' -> out.append("\\\\");
        default -> out.append(c <= ' ' || c > '~' ? String.format("\\u%04x", (int) c) : c);
      }
    }
    return out.toString();
  }

  @TestFactory
  Stream<DynamicTest> scan_edgeCase_streamingMatchesDomAndExpected() throws IOException {
    Map<String, String> types = contentTypes();
    Map<String, List<String>> expected = expected();
    return pages().stream().map(page -> DynamicTest.dynamicTest(page.getFileName().toString(),
        () -> {
          String name = page.getFileName().toString();
          byte[] body = Files.readAllBytes(page);
          PageLinks dom = LinkScanner.dom().scan(body, types.get(name));
          PageLinks streaming = LinkScanner.streaming().scan(body, types.get(name));

          assertThat(streaming.difference(dom)).as(name).isEmpty();
          assertThat(describe(streaming)).as(name).containsExactlyElementsOf(expected.get(name));
        }));
  }

  @Test
  void expectedFile_coversEveryEdgeCase() throws IOException {
    List<String> names = pages().stream().map(p -> p.getFileName().toString()).toList();

    assertThat(expected().keySet()).containsExactlyInAnyOrderElementsOf(names);
    assertThat(names).hasSizeGreaterThanOrEqualTo(30);
  }
}

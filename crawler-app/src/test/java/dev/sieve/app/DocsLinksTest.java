package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md and docs/*.md leads somewhere: to a file or directory of the
 * repository, and where it names an anchor, to a heading of the page it names.
 */
class DocsLinksTest {
  /** A Markdown link's target: {@code [text](target)} or {@code [text](target "title")}. */
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

  @Test
  void everyRelativeLink_resolvesToAFileAndHeading() {
    List<String> broken = new ArrayList<>();
    for (Path page : DocPages.all()) {
      for (String target : links(DocPages.read(page))) {
        String problem = problem(page, target);
        if (problem != null) {
          broken.add(DocPages.ROOT.relativize(page) + ": (" + target + ") " + problem);
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void brokenLinks_areFound(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path page = Files.writeString(dir.resolve("page.md"), "# Title\n\n## A `b` c\n");

    assertThat(problem(page, "page.md#a-b-c")).isNull();
    assertThat(problem(page, "#title")).isNull();
    assertThat(problem(page, "#nowhere")).contains("no heading");
    assertThat(problem(page, "missing.md")).contains("no such file");
    assertThat(links("[x](a.md) `[y](b.md)`\n```\n[z](c.md)\n```\n[w](https://example.org/)"))
        .containsExactly("a.md");
  }

  /** The relative link targets of a page, outside code. */
  static List<String> links(String page) {
    List<String> targets = new ArrayList<>();
    for (String line : DocPages.prose(page)) {
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
          targets.add(target);
        }
      }
    }
    return targets;
  }

  /** What is wrong with a link from {@code page}, or null when it resolves. */
  static String problem(Path page, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
    if (!Files.exists(resolved)) {
      return "no such file: " + resolved;
    }
    if (hash < 0) {
      return null;
    }
    String anchor = target.substring(hash + 1);
    if (!resolved.toString().endsWith(".md")) {
      return null;
    }
    return DocPages.anchors(DocPages.read(resolved)).contains(anchor)
        ? null : "no heading for #" + anchor + " in " + resolved.getFileName();
  }
}

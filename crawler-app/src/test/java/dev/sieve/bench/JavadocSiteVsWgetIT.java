package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generated javadoc-like site whose root is only a meta refresh into a frameset (frames, an
 * iframe, link rel=next/alternate pages, style sheets), served by a real nginx: real {@code wget
 * -r} and the packaged crawler, run as {@code bench vs-wget} runs them, fetch the same HTML pages,
 * and those are every page the site has.
 */
class JavadocSiteVsWgetIT {
  private static final Path NGINX = Path.of("/usr/sbin/nginx");
  private static final Path WGET = Path.of("/usr/bin/wget");
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final int PACKAGES = 4;
  private static final int CLASSES = 6;

  @TempDir Path corpus;
  @TempDir Path work;

  @Test
  void metaRefreshIntoFrames_crawledWhole_sameHtmlPagesAsWget() throws Exception {
    requireTools();
    Set<String> pages = generate(corpus);

    try (NginxServer server = NginxServer.start(NGINX, corpus)) {
      String seed = server.base() + "/index.html";
      Files.writeString(work.resolve("seeds.txt"), seed + "\n");
      Tool wget = new Tool("wget", List.of(WGET.toString(), "-r", "-l", "inf", "-np", "-nv",
          "-e", "robots=on", "-P", work.resolve("wget").toString(), "-o",
          work.resolve("wget.log").toString(), seed), Map.of(), Set.of(0, 8));
      Tool sieve = new Tool("sieve", List.of(SiteProcess.java(), "-Xmx256m", "-jar",
          JAR.toAbsolutePath().toString(), "crawl", "--seeds", "seeds.txt", "--output",
          "sieve.jsonl", "--overwrite", "--delay-ms", "0"), Map.of(), Set.of(0));

      Tool.Run byWget = wget.run(server, work);
      Tool.Run bySieve = sieve.run(server, work);

      assertThat(byWget.failure()).isNull();
      assertThat(bySieve.failure()).isNull();
      assertThat(byWget.pages()).as("wget -r").containsExactlyInAnyOrderElementsOf(pages);
      assertThat(bySieve.pages()).as("the crawl").containsExactlyInAnyOrderElementsOf(byWget.pages());
      assertThat(Files.readString(work.resolve("sieve.out"))).contains("meta-refresh=1");
    }
  }

  private static void requireTools() {
    for (Path tool : List.of(NGINX, WGET)) {
      if (!Files.isExecutable(tool)) {
        // Under CI a missing tool is a failure (.ci/run installs both), elsewhere a skip.
        assertThat("true".equalsIgnoreCase(System.getenv("CI")))
            .as("%s is not installed (apt-get install nginx-light wget; .ci/run does)", tool).isFalse();
        assumeTrue(false, tool + " is not installed");
      }
    }
  }

  /**
   * Writes the site and returns its HTML pages as nginx logs their URI: the root refreshes to
   * api/index.html, a frameset of the package list, the class list and the overview; each class
   * has a page with its source in an iframe (reached only so) and a print version behind {@code
   * link rel=alternate} (reached only so); package summaries are chained by {@code link rel=next}.
   * Style sheets and icons are linked from every page and are not HTML.
   */
  static Set<String> generate(Path root) throws IOException {
    Set<String> pages = new TreeSet<>();
    write(root, "index.html", "<html><head><meta http-equiv=\"refresh\" content=\"0; url=api/index.html\">"
        + "<title>Redirecting</title></head><body></body></html>", pages);
    Files.createDirectories(root.resolve("api"));
    Files.writeString(root.resolve("api/stylesheet.css"), "body { margin: 0 }");
    write(root, "api/index.html", head("API", "") + "<frameset cols=\"20%,80%\"><frameset rows=\"30%,70%\">"
        + "<frame src=\"overview-frame.html\" name=\"packageListFrame\">"
        + "<frame src=\"allclasses-frame.html\" name=\"packageFrame\"></frameset>"
        + "<frame src=\"overview-summary.html\" name=\"classFrame\"></frameset></html>", pages);
    StringBuilder packages = new StringBuilder(head("Packages", ""));
    StringBuilder classes = new StringBuilder(head("All classes", ""));
    for (int p = 0; p < PACKAGES; p++) {
      String pkg = "api/pkg" + p + "/";
      packages.append("<a href=\"pkg").append(p).append("/package-frame.html\" target=\"packageFrame\">")
          .append(p).append("</a>");
      StringBuilder frame = new StringBuilder(head("package " + p, ""));
      String next = p + 1 < PACKAGES
          ? "<link rel=\"next\" href=\"../pkg" + (p + 1) + "/package-summary.html\">" : "";
      StringBuilder summary = new StringBuilder(head("package " + p, next));
      for (int c = 0; c < CLASSES; c++) {
        String type = "Type" + c;
        frame.append("<a href=\"").append(type).append(".html\" target=\"classFrame\">").append(type).append("</a>");
        classes.append("<a href=\"pkg").append(p).append('/').append(type).append(".html\">").append(type).append("</a>");
        summary.append("<a href=\"").append(type).append(".html\">").append(type).append("</a>");
        write(root, pkg + type + ".html", head(type, "<link rel=\"alternate\" media=\"print\" href=\""
            + type + "-print.html\">") + "<body><iframe src=\"" + type + "-source.html\"></iframe></body></html>", pages);
        write(root, pkg + type + "-source.html", head(type + " source", "") + "<pre>class " + type + " {}</pre>", pages);
        write(root, pkg + type + "-print.html", head(type + " print", "") + "<p>" + type + "</p>", pages);
      }
      write(root, pkg + "package-frame.html", frame.toString(), pages);
      write(root, pkg + "package-summary.html", summary.toString(), pages);
    }
    write(root, "api/overview-frame.html", packages.toString(), pages);
    write(root, "api/allclasses-frame.html", classes.toString(), pages);
    // Only the first package's summary is linked; the others follow by link rel=next.
    write(root, "api/overview-summary.html", head("Overview", "")
        + "<a href=\"pkg0/package-summary.html\">first package</a>", pages);
    return pages;
  }

  private static String head(String title, String links) {
    return "<!DOCTYPE html><html><head><title>" + title + "</title>"
        + "<link rel=\"stylesheet\" href=\"/api/stylesheet.css\"><link rel=\"icon\" href=\"/favicon.ico\">"
        + links + "</head>";
  }

  private static void write(Path root, String path, String html, Set<String> pages) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, html);
    pages.add("/" + path);
  }
}

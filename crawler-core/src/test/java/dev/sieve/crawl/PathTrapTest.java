package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PathTrapTest {

  @Test
  void isTrap_segmentRepeatedMoreThanTheLimit_isATrap() {
    assertThat(PathTrap.isTrap("/a/b/a/b/a/b/a/", 20, 3)).isTrue();
    assertThat(PathTrap.isTrap("/a/b/a/b/a/b/", 20, 3)).isFalse();
    assertThat(PathTrap.isTrap("/x/x/x/x?q=/x/x", 20, 3)).isTrue();
    assertThat(PathTrap.isTrap("/x/x/x?q=/x/x/x/x", 20, 3)).isFalse();
  }

  @Test
  void isTrap_moreSegmentsThanTheDepth_isATrap() {
    assertThat(PathTrap.isTrap("/1/2/3/4/5", 4, 3)).isTrue();
    assertThat(PathTrap.isTrap("/1/2/3/4", 4, 3)).isFalse();
    assertThat(PathTrap.isTrap("/1/2/3/4////", 4, 3)).isFalse();
    assertThat(PathTrap.isTrap("/1//2/3/4", 4, 3)).isTrue();
  }

  @Test
  void isTrap_emptySegmentsAndPrefixes_neverCountAsRepeats() {
    assertThat(PathTrap.isTrap("/a//////b", 20, 3)).isFalse();
    assertThat(PathTrap.isTrap("/ab/abc/ab/abcd/ab/a", 20, 3)).isFalse();
    assertThat(PathTrap.isTrap("/ab/abc/ab/abcd/ab/a/ab", 20, 3)).isTrue();
  }

  @Test
  void isTrap_randomPaths_agreeWithSplittingAndCounting() {
    Random random = new Random(30);
    String[] parts = {"a", "b", "ab", "", "index.html", "?", "?q=a/a", "/"};
    for (int n = 0; n < 20_000; n++) {
      StringBuilder path = new StringBuilder(random.nextBoolean() ? "/" : "");
      int length = random.nextInt(14);
      for (int i = 0; i < length; i++) {
        path.append(parts[random.nextInt(parts.length)]).append(random.nextInt(4) == 0 ? "" : "/");
      }
      int depth = random.nextInt(10);
      int repeats = 1 + random.nextInt(4);
      assertThat(PathTrap.isTrap(path.toString(), depth, repeats))
          .as("%s depth %d repeats %d", path, depth, repeats)
          .isEqualTo(splitAndCount(path.toString(), depth, repeats));
    }
  }

  /** The rule as first written: split the path, count each segment in a map. */
  private static boolean splitAndCount(String pathAndQuery, int maxPathDepth, int maxRepeatedSegments) {
    int query = pathAndQuery.indexOf('?');
    String path = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
    String[] segments = path.split("/");
    if (segments.length - 1 > maxPathDepth) {
      return true;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (String segment : segments) {
      if (!segment.isEmpty() && counts.merge(segment, 1, Integer::sum) > maxRepeatedSegments) {
        return true;
      }
    }
    return false;
  }
}

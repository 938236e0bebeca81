package dev.sieve.app;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The {@code demo} command's site: {@value #HOSTS} hosts on free ports of 127.0.0.1, generated
 * from a fixed seed so that every run serves the same pages. Each host has a home page, section
 * pages listing its articles, and articles linking to neighbours and random articles (relative,
 * root-relative and absolute links, many to pages linked already), to the other hosts, and now and
 * then to a page that does not exist (404), a redirect chain ({@code /old/i} → 301 {@code
 * /moved/i} → 302 an article), a section its robots.txt disallows ({@code /private/}), and a site
 * off loopback. The home page links a calendar trap: {@code /calendar?month=N} links month N+1,
 * forever, which only {@code --max-query-variants} ends. Each page's links go to distinct URLs.
 *
 * <p>The site as a model: what each address answers, without HTTP ({@link DemoServer} serves it),
 * so that what a crawl should find can be computed ({@link #admitted}). Immutable.
 */
final class DemoSite {
  static final int HOSTS = 3;
  static final String DISALLOWED = "/private/";
  /** The origin of the off-site links: never fetched, as it is out of the crawl's scope. */
  static final String OFF_SITE = "http://example.invalid";
  private static final int RANDOM_LINKS = 8;
  static final String ROBOTS = "# The Sieve demo site: crawl anything but " + DISALLOWED + "\n"
      + "User-agent: *\nDisallow: " + DISALLOWED + "\n";

  /** A link: the target's host (-1: off the site), its path and query, and how it is written. */
  record Link(int host, String path, Form form) {}

  /** How an href is written. */
  enum Form { RELATIVE, ROOT, ABSOLUTE }

  /** What an address answers: a status and the page's links, or for a redirect its target. */
  record Answer(int status, List<Link> links) {
    boolean isRedirect() {
      return status / 100 == 3;
    }
  }

  private final int articles;
  private final int sections;
  /** The site with {@code pages} articles split over its hosts. */
  DemoSite(int pages) {
    this.articles = Math.max(1, pages / HOSTS);
    this.sections = Math.max(1, articles / 100);
  }

  /** Whether robots.txt keeps crawlers away from {@code path}. */
  static boolean disallowed(String path) {
    return path.startsWith(DISALLOWED);
  }

  /** What {@code path} (with its query) on {@code host} answers. */
  Answer answer(int host, String path) {
    if (path.equals("/")) {
      return page(home(host));
    }
    String[] parts = path.split("[/?=.]");
    if (path.startsWith("/section/") && path.endsWith(".html") && parts.length == 4) {
      int section = number(parts[2]);
      return section >= 0 && section < sections ? page(section(host, section)) : notFound();
    }
    if (path.startsWith("/articles/") && path.endsWith(".html") && parts.length == 4) {
      int article = number(parts[2]);
      return article >= 0 && article < articles ? page(article(host, article)) : notFound();
    }
    if (path.startsWith("/calendar?month=") && parts.length == 4) {
      int month = number(parts[3]);
      return month >= 0
          ? page(List.of(new Link(host, "/calendar?month=" + (month + 1), Form.RELATIVE),
              new Link(host, "/", Form.ROOT)))
          : notFound();
    }
    if (path.startsWith("/old/") && parts.length == 3 && number(parts[2]) >= 0) {
      return new Answer(301, List.of(new Link(host, "/moved/" + parts[2], Form.ROOT)));
    }
    if (path.startsWith("/moved/") && parts.length == 3 && number(parts[2]) >= 0) {
      int article = number(parts[2]) % articles;
      return new Answer(302, List.of(new Link(host, "/articles/" + article + ".html", Form.ABSOLUTE)));
    }
    return disallowed(path) ? page(List.of()) : notFound();
  }

  private List<Link> home(int host) {
    Map<String, Link> links = new LinkedHashMap<>();
    for (int s = 0; s < sections; s++) {
      add(links, new Link(host, "/section/" + s + ".html", Form.RELATIVE));
    }
    add(links, new Link(host, "/calendar?month=0", Form.RELATIVE));
    add(links, new Link(host, DISALLOWED, Form.ROOT));
    for (int other = 1; other < HOSTS; other++) {
      add(links, new Link((host + other) % HOSTS, "/", Form.ABSOLUTE));
    }
    add(links, new Link(-1, "/", Form.ABSOLUTE));
    return List.copyOf(links.values());
  }

  private List<Link> section(int host, int section) {
    Map<String, Link> links = new LinkedHashMap<>();
    add(links, new Link(host, "/", Form.ROOT));
    add(links, new Link(host, "/section/" + (section + 1) % sections + ".html", Form.RELATIVE));
    for (int article = section; article < articles; article += sections) {
      add(links, articleLink(host, article, Form.RELATIVE));
    }
    return List.copyOf(links.values());
  }

  private List<Link> article(int host, int article) {
    Random random = new Random(article * 31L + host);
    Map<String, Link> links = new LinkedHashMap<>();
    add(links, new Link(host, "/", Form.ABSOLUTE));
    add(links, new Link(host, "/section/" + article % sections + ".html", Form.ROOT));
    if (article + 1 < articles) {
      add(links, articleLink(host, article + 1, Form.RELATIVE));
    }
    if (article > 0) {
      add(links, articleLink(host, article - 1, Form.RELATIVE));
    }
    Form[] forms = Form.values();
    for (int i = 0; i < RANDOM_LINKS; i++) {
      add(links, articleLink(host, random.nextInt(articles), forms[random.nextInt(forms.length)]));
    }
    add(links, articleLink((host + 1 + random.nextInt(HOSTS - 1)) % HOSTS, random.nextInt(articles), Form.ABSOLUTE));
    if (article % 25 == 7) {
      add(links, new Link(host, DISALLOWED + article + ".html", Form.ROOT));
    }
    if (article % 40 == 11) {
      add(links, articleLink(host, articles + article, Form.RELATIVE));
    }
    if (article % 50 == 13) {
      add(links, new Link(host, "/old/" + (article * 7 + 3), Form.ROOT));
    }
    if (article % 100 == 5) {
      add(links, new Link(-1, "/articles/" + article + ".html", Form.ABSOLUTE));
    }
    return List.copyOf(links.values());
  }

  private static Link articleLink(int host, int article, Form form) {
    return new Link(host, "/articles/" + article + ".html", form);
  }

  /** Keeps the first link to each target: a page's links go to distinct URLs. */
  private static void add(Map<String, Link> links, Link link) {
    links.putIfAbsent(link.host() + link.path(), link);
  }

  private static Answer page(List<Link> links) {
    return new Answer(200, links);
  }

  private static Answer notFound() {
    return new Answer(404, List.of());
  }

  private static int number(String digits) {
    if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(digits);
  }

  /**
   * Every URL a crawl from the home pages lets through its Sieve, in the order a breadth-first
   * crawl finds them: the seeds, then the pages, redirects and 404s it fetches. Not admitted: links
   * off the site (out of scope), pages its robots.txt disallows (a host's robots.txt is fetched
   * before its pages, so links to them are refused), and a link whose query string is new once
   * {@code maxQueryVariants} distinct ones have been admitted for its host and path: as {@code
   * crawl --max-query-variants} counts them, so that month {@code maxQueryVariants} of the calendar
   * is the first refused.
   */
  Set<String> admitted(int maxQueryVariants) {
    Set<String> admitted = new LinkedHashSet<>();
    Map<String, Set<String>> queries = new HashMap<>();
    ArrayDeque<String> queue = new ArrayDeque<>();
    for (int host = 0; host < HOSTS; host++) {
      admitted.add(key(host, "/"));
      queue.add(key(host, "/"));
    }
    while (!queue.isEmpty()) {
      String address = queue.poll();
      for (Link link : answer(address.charAt(0) - '0', address.substring(1)).links()) {
        String target = key(link.host(), link.path());
        if (link.host() >= 0 && !disallowed(link.path()) && !admitted.contains(target)
            && queryAdmitted(queries, target, maxQueryVariants)) {
          admitted.add(target);
          queue.add(target);
        }
      }
    }
    return admitted;
  }

  /** Whether {@code address}'s query, if any, is known or one of the first {@code max} of its path. */
  private static boolean queryAdmitted(Map<String, Set<String>> queries, String address, int max) {
    int q = address.indexOf('?');
    if (q < 0) {
      return true;
    }
    Set<String> known = queries.computeIfAbsent(address.substring(0, q), path -> new HashSet<>());
    String query = address.substring(q + 1);
    return known.contains(query) || (known.size() < max && known.add(query));
  }

  /** An address as {@link #admitted} keys it: the host's index, then the path and query. */
  static String key(int host, String path) {
    return host + path;
  }
}

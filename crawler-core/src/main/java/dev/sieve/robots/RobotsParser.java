package dev.sieve.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRulesMode;
import crawlercommons.robots.SimpleRobotRulesParser;
import dev.sieve.fetch.FetchResult;
import dev.sieve.url.Url;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a robots.txt body fetched with a 2xx into rules for one agent token, with crawler-commons
 * (RFC 9309). Never throws for what the web sends: garbage parses to whatever crawler-commons
 * makes of it (usually allow all). Logs at INFO, on {@link RobotsPolicy}'s logger, a file that is
 * oversized or mostly unparsable and one whose Crawl-delay is above the maximum. Stateless.
 */
final class RobotsParser {
  private static final Logger log = LoggerFactory.getLogger(RobotsPolicy.class);

  private final List<String> agentNames;
  private final Duration maxCrawlDelay;

  RobotsParser(String agentToken, Duration maxCrawlDelay) {
    this.agentNames = List.of(agentToken);
    this.maxCrawlDelay = maxCrawlDelay;
  }

  /**
   * The rules in the first {@link RobotsTxt#MAX_BYTES} of {@code result}'s body, fetched from
   * {@code at} for {@code origin} at {@code now}, that expire at {@code expiresAt}.
   */
  RobotsRules parse(String origin, Url at, FetchResult result, Instant now, Instant expiresAt) {
    byte[] received = result.body();
    byte[] body = RobotsTxt.cap(received, !result.truncated(), RobotsTxt.MAX_BYTES);
    // A parser per parse: its warning count lives in a per-instance thread-local that some
    // parses leave unset (see warnings()), so a shared one could report a previous file's count.
    // No crawl-delay cap inside the parser: it would silently turn a long delay into "disallow
    // all"; RobotsPolicy.check() applies maxCrawlDelay itself. No per-line warnings: the INFO
    // line below sums them up.
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 0);
    BaseRobotRules parsed;
    int warnings;
    try {
      parsed = parser.parseContent(at.toString(), body, result.contentType(), agentNames);
      warnings = warnings(parser);
    } catch (RuntimeException e) { // Defensive: third-party code fed with web input.
      log.info("robots.txt of {} could not be parsed ({}), allowing all", origin, e.toString());
      parsed = new SimpleRobotRules(RobotRulesMode.ALLOW_ALL);
      warnings = 0;
    }
    int lines = RobotsTxt.countNonBlankLines(body);
    boolean cut = body.length < received.length || result.truncated();
    if (cut || warnings * 2 > lines) {
      log.info(
          "robots.txt of {} is oversized or malformed: {} bytes received{}, {} parsed, {} of {}"
              + " lines not understood; obeying what parsed ({})",
          origin,
          received.length,
          result.truncated() ? " (truncated by the fetcher)" : "",
          body.length,
          warnings,
          lines,
          describe(parsed));
    }
    RobotsRules rules = RobotsRules.parsed(origin, parsed, now, expiresAt, body.length);
    Optional<Duration> delay = rules.crawlDelay();
    if (delay.isPresent() && delay.get().compareTo(maxCrawlDelay) > 0) {
      log.info(
          "robots.txt of {} asks for Crawl-delay {}, above the maximum {}: skipping the host"
              + " until {}",
          origin,
          seconds(delay.get()),
          seconds(maxCrawlDelay),
          rules.expiresAt());
    }
    log.debug("robots.txt of {} fetched from {}: {}", origin, at, describe(parsed));
    return rules;
  }

  /**
   * The lines {@code parser}'s last parse did not understand. crawler-commons 1.6 records the
   * count only when it parses line by line; an empty body or an HTML page without rules returns
   * early, leaving the count unset, and {@code getNumWarnings()} then throws.
   */
  private static int warnings(SimpleRobotRulesParser parser) {
    try {
      return parser.getNumWarnings();
    } catch (NullPointerException unset) {
      return 0;
    }
  }

  private static String describe(BaseRobotRules rules) {
    return rules.isAllowAll() ? "allow all" : rules.isAllowNone() ? "allow none" : "some rules";
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
  }
}

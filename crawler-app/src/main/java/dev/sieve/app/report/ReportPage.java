package dev.sieve.app.report;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.units.Units;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The report's HTML: one page with no link to anything outside it (its Content-Security-Policy
 * forbids any fetch), inline CSS, inline SVG charts, and one tiny inline script that notes script
 * errors ({@code data-errors}) and the charts' drawn paths ({@code data-drawn-paths}) on the root
 * element. Every figure is also in a {@code data-value} attribute, for tests and scripts.
 */
final class ReportPage {
  private static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";
  private static final String SCRIPT = "(function(){var r=document.documentElement;"
      + "window.addEventListener('error',function(e){r.setAttribute('data-errors',"
      + "(r.getAttribute('data-errors')||'')+(e.message||'error')+';');});"
      + "window.addEventListener('load',function(){var n=0;document.querySelectorAll('svg path')"
      + ".forEach(function(p){if((p.getAttribute('d')||'').length>3)n++;});"
      + "r.setAttribute('data-drawn-paths',String(n));});})();";
  private static final String STYLE = "body{font:14px/1.45 system-ui,sans-serif;color:#222;max-width:820px;"
      + "margin:24px auto;padding:0 16px}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;"
      + "margin:28px 0 8px;border-bottom:1px solid #ddd}.status{color:#555;margin:0}"
      + "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:2px 8px;"
      + "border-bottom:1px solid #eee;vertical-align:top}td.n{text-align:right;font-variant-numeric:"
      + "tabular-nums}td.v{word-break:break-all}svg.chart{width:100%;height:auto;margin:8px 0}"
      + "svg text{font:11px system-ui,sans-serif;fill:#444}svg .title{font-size:13px;font-weight:600;"
      + "fill:#222}svg .axis path{stroke:#e4e4e4}svg .line{fill:none;stroke-linejoin:round}svg .level{stroke:"
      + "#888;stroke-dasharray:6 4}svg .marker{stroke:#d62728;stroke-dasharray:3 3}.note{color:#555}";
  private static final String PAGES = "#1f77b4";
  private static final String ERRORS = "#d62728";
  private static final String EXACT = "#2ca02c";
  private static final String BYTES = "#9467bd";

  private final CrawlProgress p;
  private final long exact;
  private final long capacity;
  private final Samples.Points points;
  private final HostTallies hosts;
  private final List<CrawlReport.Warning> warnings;
  private final int notMarked;
  private final Map<String, String> settings;
  private final StringBuilder html = new StringBuilder(32 * 1024);

  ReportPage(CrawlProgress progress, long exact, long capacity, Samples.Points points,
      HostTallies hosts, List<CrawlReport.Warning> warnings, int notMarked,
      Map<String, String> settings) {
    this.p = progress;
    this.exact = exact;
    this.capacity = capacity;
    this.points = points;
    this.hosts = hosts;
    this.warnings = warnings;
    this.notMarked = notMarked;
    this.settings = settings;
  }

  String render(boolean finished, Instant at) {
    html.append("<!DOCTYPE html>\n<html lang=\"en\" data-report=\"sieve-crawl\" data-finished=\"")
        .append(finished).append("\"><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">")
        .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        .append("<title>Sieve crawl report</title><script>").append(SCRIPT).append("</script><style>")
        .append(STYLE).append("</style></head><body>\n<h1>Sieve crawl report</h1>");
    html.append("<p class=\"status\">").append(finished ? "Finished" : "Running: refreshed at each checkpoint")
        .append(" · written ").append(at.truncatedTo(ChronoUnit.SECONDS)).append(" · ")
        .append(Axis.duration(Math.round(seconds() * 10) / 10.0)).append(" of crawling</p>\n");
    summary();
    overTime();
    sieve();
    fates();
    topHosts();
    settings();
    return html.append("</body></html>\n").toString();
  }

  private double seconds() {
    return p.elapsed().toNanos() / 1e9;
  }

  private void summary() {
    html.append("<h2>Summary</h2><table class=\"figures\">");
    figure("pages", "pages", p.pages());
    figure("pages/s", "pagesPerSecond", String.format(Locale.ROOT, "%.1f", p.pagesPerSecond()));
    figure("seconds", "elapsedSeconds", String.format(Locale.ROOT, "%.1f", seconds()));
    figure("errors", "errors", p.errorTotal());
    p.errors().forEach((kind, n) -> figure("  errors " + kind, "errors." + kind, n));
    html.append("<tr><th>bytes</th><td class=\"n\" data-figure=\"bytes\" data-value=\"").append(p.bytes())
        .append("\">").append(Units.bytes(p.bytes())).append("</td></tr>");
    p.links().forEach((fate, n) -> figure("links " + fate, "links." + fate, n));
    p.skipped().forEach((reason, n) -> figure("skipped " + reason, "skipped." + reason, n));
    p.sitemaps().forEach((event, n) -> figure("sitemaps " + event, "sitemaps." + event, n));
    figure("retries", "retries", p.retries());
    figure("connections opened", "connections.opened", p.connections().opened());
    figure("connections reused", "connections.reused", p.connections().reused());
    figure("connections stale (sent again)", "connections.stale", p.connections().stale());
    figure("most fetches in flight", "connections.mostFetching", p.connections().mostFetching());
    figure("pending at end", "pending", p.pending());
    figure("hosts", "hosts", p.hosts());
    figure("Sieve: estimated URLs", "sieve.estimate", p.sieveEstimate());
    figure("Sieve: exact URLs let through", "sieve.exact", exact);
    figure("Sieve: capacity (--expected-urls)", "sieve.capacity", capacity);
    figure("Sieve: false-positive rate", "sieve.fpp", String.format(Locale.ROOT, "%.2g", p.sieveFpp()));
    figure("Sieve: layers", "sieve.layers", p.sieveLayers());
    figure("capacity warnings", "capacityWarnings", p.capacityWarnings());
    html.append("</table>\n");
  }

  private void figure(String label, String key, long value) {
    figure(label, key, Long.toString(value), String.format(Locale.ROOT, "%,d", value));
  }

  private void figure(String label, String key, String value) {
    figure(label, key, value, value);
  }

  private void figure(String label, String key, String value, String shown) {
    html.append("<tr><th>").append(Html.escape(label.strip())).append("</th><td class=\"n\" data-figure=\"")
        .append(Html.escape(key)).append("\" data-value=\"").append(Html.escape(value)).append("\">")
        .append(Html.escape(shown)).append("</td></tr>");
  }

  private void overTime() {
    html.append("<h2>Over time</h2>");
    double[] at = points.rateSeconds();
    html.append(new LineChart("Pages per second").line("pages/s", PAGES, at,
        points.rate(CrawlReport.PAGES)).svg());
    html.append(new LineChart("Errors per second").line("errors/s", ERRORS, at,
        points.rate(CrawlReport.ERRORS)).svg());
    html.append(String.format(Locale.ROOT, "<p class=\"note\">%d points; each is the rate since the"
        + " point before it, from the crawl's counters sampled every second (fewer, evenly spread,"
        + " on a long crawl).</p>\n", at.length));
  }

  private void sieve() {
    html.append("<h2>The Sieve</h2>");
    LineChart chart = new LineChart("Distinct URLs through the Sieve")
        .line("estimated", PAGES, points.seconds(), points.counter(CrawlReport.ESTIMATE))
        .line("exact", EXACT, points.seconds(), points.counter(CrawlReport.EXACT))
        .level("capacity", capacity);
    for (CrawlReport.Warning w : warnings) {
      chart.marker(w.seconds(), String.format(Locale.ROOT, "WARN at %s: estimate %,d passed %.1f× the"
          + " capacity of %,d; fpp %.2g (target %.2g)", Axis.duration(w.seconds()),
          w.warning().estimatedCount(), w.warning().threshold(), w.warning().capacity(),
          w.warning().estimatedFpp(), w.warning().targetFpp()));
    }
    html.append(chart.svg());
    html.append(String.format(Locale.ROOT, "<p class=\"note\">The Sieve estimates %,d distinct URLs;"
            + " exactly %,d went through it (%+.2f%%): the seeds, every new link and redirect target."
            + " Its capacity is %,d; %,d capacity warning(s)%s.</p>\n",
        p.sieveEstimate(), exact, exact == 0 ? 0.0 : 100.0 * (p.sieveEstimate() - exact) / exact,
        capacity, p.capacityWarnings(), warnings.isEmpty() ? ""
            : ", marked in red" + (notMarked > 0 ? " (the first " + warnings.size() + ")" : "")));
  }

  private void fates() {
    html.append("<h2>Fates</h2>");
    Map<String, Long> links = new LinkedHashMap<>(p.links());
    links.remove("found");
    html.append(BarChart.svg("Links found, by fate", "fate", links, PAGES));
    html.append(BarChart.svg("Records with an error, by kind", "error", p.errors(), ERRORS));
    html.append(BarChart.svg("URLs not fetched, by reason", "skipped", p.skipped(), BYTES));
    html.append('\n');
  }

  private void topHosts() {
    html.append("<h2>Top hosts</h2>");
    hostChart("pages", HostTallies.Counts::pages, PAGES);
    hostChart("errors", HostTallies.Counts::errors, ERRORS);
    hostChart("bytes", HostTallies.Counts::bytes, BYTES);
    html.append(String.format(Locale.ROOT, "<p class=\"note\">The top %d of %,d host(s) by each"
            + " measure, from this run's records%s.</p>\n", CrawlReport.TOP_HOSTS, hosts.size(),
        hosts.capped() ? "; hosts past the first " + String.format(Locale.ROOT, "%,d", CrawlReport.HOST_CAP)
            + " are counted together as " + HostTallies.OTHER : ""));
  }

  private void hostChart(String measure, ToLongFunction<HostTallies.Counts> value, String color) {
    Map<String, Long> top = new LinkedHashMap<>();
    hosts.top(CrawlReport.TOP_HOSTS, value).forEach(t -> top.put(t.host(), value.applyAsLong(t)));
    html.append(BarChart.svg("Hosts by " + measure, "host-" + measure, top, color));
  }

  private void settings() {
    html.append("<h2>Settings</h2><table class=\"settings\">");
    settings.forEach((name, value) -> html.append("<tr><th>").append(Html.escape(name))
        .append("</th><td class=\"v\" data-setting=\"").append(Html.escape(name)).append("\">")
        .append(Html.escape(value)).append("</td></tr>"));
    html.append("</table>\n");
  }
}

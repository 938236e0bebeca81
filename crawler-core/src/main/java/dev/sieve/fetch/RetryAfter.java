package dev.sieve.fetch;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a {@code Retry-After} value (RFC 9110 section 10.2.3): delta-seconds or an HTTP-date in
 * any of its three forms (IMF-fixdate, obsolete RFC 850 and asctime). Whatever the server sends,
 * parsing never throws: a value too large to represent saturates at {@link #MAX}, junk is empty.
 * Stateless.
 */
final class RetryAfter {
  /** The longest delay reported, about 292 years: every result converts to nanoseconds. */
  static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

  private static final Pattern DELTA_SECONDS = Pattern.compile("\\d+");
  /** {@code Sun, 06 Nov 1994 08:49:37 GMT}; the day name is not checked against the date. */
  private static final Pattern IMF_FIXDATE = Pattern.compile(
      "[A-Za-z]{3}, (\\d{2}) ([A-Za-z]{3}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT");
  /** {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
  private static final Pattern RFC_850 = Pattern.compile(
      "[A-Za-z]{6,9}, (\\d{2})-([A-Za-z]{3})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT");
  /** {@code Sun Nov  6 08:49:37 1994}. */
  private static final Pattern ASCTIME = Pattern.compile(
      "[A-Za-z]{3} ([A-Za-z]{3}) ([ \\d]\\d) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})");
  private static final List<String> MONTHS =
      List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

  private RetryAfter() {}

  /**
   * Returns the delay asked for by {@code value}: delta-seconds as given, an HTTP-date relative to
   * {@code now} (zero if already past), either at most {@link #MAX}. Empty when {@code value} is
   * null or neither form.
   */
  static Optional<Duration> parse(String value, Instant now) {
    if (value == null) {
      return Optional.empty();
    }
    String trimmed = value.trim();
    if (DELTA_SECONDS.matcher(trimmed).matches()) {
      return Optional.of(seconds(trimmed));
    }
    return date(trimmed, now).map(date -> until(now, date));
  }

  /** Digits as seconds, saturating at {@link #MAX} however many there are. */
  private static Duration seconds(String digits) {
    String significant = digits.replaceFirst("^0+(?=\\d)", "");
    if (significant.length() > 12) { // more than 31,000 years, far beyond MAX
      return MAX;
    }
    long seconds = Long.parseLong(significant);
    return seconds >= MAX.getSeconds() ? MAX : Duration.ofSeconds(seconds);
  }

  private static Duration until(Instant now, Instant date) {
    if (!date.isAfter(now)) {
      return Duration.ZERO;
    }
    Duration delay = Duration.between(now, date);
    return delay.compareTo(MAX) > 0 ? MAX : delay;
  }

  private static Optional<Instant> date(String value, Instant now) {
    try {
      Matcher m = IMF_FIXDATE.matcher(value);
      if (m.matches()) {
        return instant(num(m, 3), m.group(2), num(m, 1), m, 4);
      }
      m = RFC_850.matcher(value);
      if (m.matches()) {
        return instant(fullYear(num(m, 3), now), m.group(2), num(m, 1), m, 4);
      }
      m = ASCTIME.matcher(value);
      if (m.matches()) {
        return instant(num(m, 6), m.group(1), Integer.parseInt(m.group(2).trim()), m, 3);
      }
    } catch (DateTimeException invalid) {
      // e.g. 31 Feb or 25:00:00: junk like any other.
    }
    return Optional.empty();
  }

  /** The date, or empty for an unknown month name; hour, minute, second from group {@code h}. */
  private static Optional<Instant> instant(int year, String month, int day, Matcher m, int h) {
    int monthIndex = MONTHS.indexOf(month.toLowerCase(Locale.ROOT));
    if (monthIndex < 0) {
      return Optional.empty();
    }
    LocalDateTime time = LocalDateTime.of(
        year, Month.of(monthIndex + 1), day, num(m, h), num(m, h + 1), num(m, h + 2));
    return Optional.of(time.toInstant(ZoneOffset.UTC));
  }

  /**
   * A two-digit RFC 850 year: RFC 9110 section 5.6.7 reads one more than 50 years ahead of
   * {@code now} as the most recent past year with those digits.
   */
  private static int fullYear(int twoDigits, Instant now) {
    int thisYear = now.atOffset(ZoneOffset.UTC).getYear();
    int year = thisYear - Math.floorMod(thisYear, 100) + twoDigits;
    return year > thisYear + 50 ? year - 100 : year;
  }

  private static int num(Matcher m, int group) {
    return Integer.parseInt(m.group(group));
  }
}

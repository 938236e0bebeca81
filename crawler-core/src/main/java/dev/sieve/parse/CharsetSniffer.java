package dev.sieve.parse;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses the charset of an HTML body as Jsoup does when given bytes: a byte-order mark wins, then
 * a supported charset in the Content-Type header, then the first {@code <meta http-equiv=
 * content-type>} or {@code <meta charset>} (or an {@code <?xml encoding?>} declaration as first
 * node) found by parsing the first 5,120 bytes as UTF-8, else UTF-8.
 */
final class CharsetSniffer {

  /** How much of the body is parsed to look for a meta charset. */
  static final int SNIFF_BYTES = 5 * 1024;

  private static final Pattern CONTENT_TYPE_CHARSET =
      Pattern.compile("(?i)\\bcharset=\\s*[\"']?([^\\s,;\"']*)");
  private static final Pattern XML_ENCODING =
      Pattern.compile("\\sencoding\\s*=\\s*[\"']([^\"']*)[\"']");

  /** A body's charset and where its text starts (after a UTF-8 byte-order mark). */
  record Choice(Charset charset, int offset) {}

  private CharsetSniffer() {}

  static Choice choose(byte[] body, String contentType) {
    byte b0 = at(body, 0);
    byte b1 = at(body, 1);
    byte b2 = at(body, 2);
    byte b3 = at(body, 3);
    if ((b0 == 0 && b1 == 0 && b2 == (byte) 0xFE && b3 == (byte) 0xFF)
        || (b0 == (byte) 0xFF && b1 == (byte) 0xFE && b2 == 0 && b3 == 0)) {
      return new Choice(Charset.forName("UTF-32"), 0);
    }
    if ((b0 == (byte) 0xFE && b1 == (byte) 0xFF) || (b0 == (byte) 0xFF && b1 == (byte) 0xFE)) {
      return new Choice(StandardCharsets.UTF_16, 0);
    }
    if (b0 == (byte) 0xEF && b1 == (byte) 0xBB && b2 == (byte) 0xBF) {
      return new Choice(StandardCharsets.UTF_8, 3);
    }
    String header = HeaderCharset.of(contentType);
    if (header != null) {
      return new Choice(Charset.forName(header), 0);
    }
    String found = supported(fromMarkup(body));
    if (found != null && !found.equalsIgnoreCase("UTF-8")) {
      return new Choice(Charset.forName(found), 0);
    }
    return new Choice(StandardCharsets.UTF_8, 0);
  }

  private static byte at(byte[] body, int i) {
    return i < body.length ? body[i] : 0;
  }

  /** The charset the first {@value #SNIFF_BYTES} bytes name, unvalidated, or null. */
  private static String fromMarkup(byte[] body) {
    String[] found = new String[1];
    TreeTracker[] tracker = new TreeTracker[1];
    tracker[0] = new TreeTracker((name, attributes) -> {
      if (!name.equals("meta")) {
        return;
      }
      String equiv = attributes.get("http-equiv");
      String charset = attributes.get("charset");
      if (!"content-type".equalsIgnoreCase(equiv) && charset == null) {
        return;
      }
      String named = equiv == null ? null : supported(fromContentType(attributes.get("content")));
      found[0] = named != null ? named : charset;
      if (found[0] != null) {
        tracker[0].stop();
      }
    });
    PageText prefix =
        new PageText(body, 0, Math.min(body.length, SNIFF_BYTES), StandardCharsets.UTF_8);
    new HtmlTokenizer(prefix, tracker[0]).run();
    if (found[0] == null && tracker[0].firstComment() != null) {
      found[0] = xmlEncoding(tracker[0].firstComment());
    }
    return found[0];
  }

  private static String fromContentType(String content) {
    if (content == null) {
      return null;
    }
    Matcher m = CONTENT_TYPE_CHARSET.matcher(content);
    return m.find() ? m.group(1).trim().replace("charset=", "") : null;
  }

  /** The encoding of an XML declaration read as a bogus comment ("?xml ... encoding='x'?"). */
  private static String xmlEncoding(String comment) {
    if (comment.length() < 4 || (comment.charAt(0) != '?' && comment.charAt(0) != '!')
        || !comment.regionMatches(true, 1, "xml", 0, 3)
        || (comment.length() > 4 && !HtmlTokenizer.isWhitespace(comment.charAt(4))
            && comment.charAt(4) != '?')) {
      return null;
    }
    Matcher m = XML_ENCODING.matcher(comment);
    return m.find() ? m.group(1) : null;
  }

  /** {@code name} without quotes and blanks if this JVM supports it (as is or upper case). */
  private static String supported(String name) {
    if (name == null || name.isEmpty()) {
      return null;
    }
    String cs = withoutQuotes(name.trim());
    try {
      if (Charset.isSupported(cs)) {
        return cs;
      }
      cs = cs.toUpperCase(Locale.ENGLISH);
      return Charset.isSupported(cs) ? cs : null;
    } catch (IllegalCharsetNameException e) {
      return null;
    }
  }

  /** {@code s} without its {@code "} and {@code '}, by hand: replaceAll compiles a regex a call. */
  private static String withoutQuotes(String s) {
    if (s.indexOf('"') < 0 && s.indexOf('\'') < 0) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '"' && c != '\'') {
        out.append(c);
      }
    }
    return out.toString();
  }
}

package dev.sieve.parse;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.util.Locale;

/** The charset a Content-Type header names, if this JVM supports it. */
final class HeaderCharset {

  private HeaderCharset() {}

  /**
   * The canonical name of the supported charset named by {@code contentType} (nullable, e.g.
   * {@code "text/html; charset=ISO-8859-1"}), or null if it names none or an unsupported one.
   */
  static String of(String contentType) {
    if (contentType == null) {
      return null;
    }
    int start = contentType.toLowerCase(Locale.ROOT).indexOf("charset=");
    if (start < 0) {
      return null;
    }
    start += "charset=".length();
    int end = contentType.indexOf(';', start);
    String name = stripQuotes(contentType.substring(start, end < 0 ? contentType.length() : end)
        .trim());
    try {
      return Charset.isSupported(name) ? Charset.forName(name).name() : null;
    } catch (IllegalCharsetNameException e) {
      return null;
    }
  }

  private static String stripQuotes(String s) {
    int start = 0;
    int end = s.length();
    if (start < end && (s.charAt(start) == '"' || s.charAt(start) == '\'')) {
      start++;
    }
    if (end > start && (s.charAt(end - 1) == '"' || s.charAt(end - 1) == '\'')) {
      end--;
    }
    return s.substring(start, end).trim();
  }
}

package dev.sieve.parse;

import java.nio.charset.StandardCharsets;
import org.jsoup.nodes.Entities;

/**
 * Decodes character references in attribute values as Jsoup's tokenizer does: numeric ones
 * ({@code &#38;}, {@code &#x26;}, the C1 range mapped through Windows-1252) with or without a
 * {@code ;}, named ones from the HTML entity table (names without {@code ;} only for the legacy
 * set, and not when followed by a letter, digit, {@code =}, {@code -} or {@code _}).
 */
final class CharRefs {

  private static final int[] WINDOWS_1252_C1 = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  };

  private final int[] codepoints = new int[2];

  /**
   * Decodes the reference starting at {@code text[pos]} (just after the {@code &}) into {@code
   * out}; returns the position after it, or -1 (nothing appended) if there is none. {@code quote}
   * is the character ending the value ({@code "}, {@code '} or {@code >} when unquoted).
   */
  int decode(byte[] text, int pos, int end, int quote, StringBuilder out) {
    if (pos >= end) {
      return -1;
    }
    byte c = text[pos];
    if (c == quote || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ' ' || c == '<'
        || c == '&') {
      return -1;
    }
    return c == '#' ? numeric(text, pos + 1, end, out) : named(text, pos, end, out);
  }

  private int numeric(byte[] text, int pos, int end, StringBuilder out) {
    boolean hex = pos < end && (text[pos] == 'x' || text[pos] == 'X');
    int start = hex ? pos + 1 : pos;
    int i = start;
    int value = 0; // -1 once past U+10FFFF, which is then replaced like any invalid code point
    while (i < end && (hex ? isHexDigit(text[i]) : isDigit(text[i]))) {
      if (value >= 0) {
        value = value * (hex ? 16 : 10) + Character.digit(text[i], 16);
        value = value > 0x10FFFF ? -1 : value;
      }
      i++;
    }
    if (i == start) {
      return -1;
    }
    if (i < end && text[i] == ';') {
      i++;
    }
    if (value <= 0 || value > 0x10FFFF) {
      out.append('\uFFFD');
    } else {
      if (value >= 0x80 && value < 0x80 + WINDOWS_1252_C1.length) {
        value = WINDOWS_1252_C1[value - 0x80];
      }
      out.appendCodePoint(value);
    }
    return i;
  }

  private int named(byte[] text, int pos, int end, StringBuilder out) {
    int i = pos;
    while (i < end && isAsciiLetter(text[i])) {
      i++;
    }
    while (i < end && isDigit(text[i])) {
      i++;
    }
    String name = new String(text, pos, i - pos, StandardCharsets.ISO_8859_1);
    boolean semicolon = i < end && text[i] == ';';
    boolean found = Entities.isBaseNamedEntity(name) || (semicolon && Entities.isNamedEntity(name));
    if (!found) {
      return -1;
    }
    if (i < end) {
      byte next = text[i];
      if (isAsciiLetter(next) || isDigit(next) || next == '=' || next == '-' || next == '_') {
        return -1;
      }
    }
    if (semicolon) {
      i++;
    }
    int n = Entities.codepointsForName(name, codepoints);
    for (int k = 0; k < n; k++) {
      out.appendCodePoint(codepoints[k]);
    }
    return i;
  }

  static boolean isAsciiLetter(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** {@code c} in lower case if it is an ASCII capital, else as it is. */
  static char lowerAscii(int c) {
    return (char) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
  }

  private static boolean isHexDigit(int c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }
}

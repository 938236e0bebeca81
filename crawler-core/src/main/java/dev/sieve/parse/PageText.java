package dev.sieve.parse;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A page's text as bytes {@code bytes[start, end)} in an ASCII-transparent charset: one where each
 * byte below 0x80 is that ASCII character wherever it stands, and other bytes never decode to one.
 * Markup is then read from the bytes themselves, and only the few strings a scan keeps are decoded
 * ({@link #string}), giving exactly the characters decoding the whole page would give there, with
 * malformed input replaced by U+FFFD. A page in any other charset (UTF-16, Shift_JIS, GBK, ...) is
 * decoded once and re-encoded as UTF-8. Immutable.
 */
final class PageText {

  /**
   * Charsets whose JDK decoders are ASCII-transparent (PageTextTest checks each on random input);
   * EUC-JP is not: its three-byte sequences can take an ASCII byte.
   */
  private static final Set<String> ASCII_TRANSPARENT = Set.of("UTF-8", "US-ASCII",
      "ISO-8859-1", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
      "ISO-8859-7", "ISO-8859-8", "ISO-8859-9", "ISO-8859-13", "ISO-8859-15", "ISO-8859-16",
      "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
      "windows-1255", "windows-1256", "windows-1257", "windows-1258", "KOI8-R", "KOI8-U",
      "IBM866", "x-windows-874", "TIS-620", "x-MacRoman", "EUC-KR", "GB2312");

  private static final byte[] REPLACEMENT_UTF8 = "\uFFFD".getBytes(StandardCharsets.UTF_8);

  final byte[] bytes;
  final int start;
  final int end;
  final Charset charset;

  PageText(byte[] bytes, int start, int end, Charset charset) {
    this.bytes = bytes;
    this.start = start;
    this.end = end;
    this.charset = charset;
  }

  /** The text of {@code body}, in the charset {@link CharsetSniffer#choose} picks for it. */
  static PageText of(byte[] body, String contentType) {
    CharsetSniffer.Choice choice = CharsetSniffer.choose(body, contentType);
    if (asciiTransparent(choice.charset())) {
      return new PageText(body, choice.offset(), body.length, choice.charset());
    }
    return utf8(decode(body, choice));
  }

  static boolean asciiTransparent(Charset charset) {
    return ASCII_TRANSPARENT.contains(charset.name());
  }

  /** The characters of {@code bytes[from, to)}, where both ends are an ASCII byte or an end. */
  String string(int from, int to) {
    return new String(bytes, from, to - from, charset);
  }

  /** Whether the bytes at {@code p} spell {@code ascii}. */
  boolean startsWith(int p, String ascii) {
    if (p + ascii.length() > end) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (bytes[p + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the bytes at {@code p} spell the ASCII {@code word}, in any case. */
  boolean startsWithIgnoreCase(int p, String word) {
    if (p + word.length() > end) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (CharRefs.lowerAscii(bytes[p + i]) != CharRefs.lowerAscii(word.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static CharBuffer decode(byte[] body, CharsetSniffer.Choice choice) {
    try {
      return choice.charset().newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(body, choice.offset(), body.length - choice.offset()));
    } catch (CharacterCodingException e) {
      throw new IllegalStateException("a replacing decoder reported " + e, e);
    }
  }

  /** {@code text} as UTF-8; a lone surrogate (no JDK decoder makes one) becomes U+FFFD. */
  private static PageText utf8(CharBuffer text) {
    CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
        .replaceWith(REPLACEMENT_UTF8);
    try {
      ByteBuffer out = encoder.encode(text);
      return new PageText(out.array(), out.arrayOffset() + out.position(),
          out.arrayOffset() + out.limit(), StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new IllegalStateException("a replacing encoder reported " + e, e);
    }
  }
}

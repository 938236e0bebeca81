package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PageTextTest {

  /** Where ASCII bytes can be inside characters, or other bytes decode to ASCII. */
  private static final List<String> NOT_TRANSPARENT = List.of("UTF-16", "UTF-16LE", "UTF-32",
      "Shift_JIS", "windows-31j", "EUC-JP", "ISO-2022-JP", "GBK", "GB18030", "Big5",
      "Big5-HKSCS", "IBM037");

  /** What the whole page decodes to, as the scanners decode it. */
  private static String decode(Charset charset, byte[] bytes, int from, int to) {
    try {
      return charset.newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(bytes, from, to - from)).toString();
    } catch (CharacterCodingException e) {
      throw new AssertionError(e);
    }
  }

  /** Random bytes rich in markup, lead bytes, continuation bytes and malformed sequences. */
  private static byte[] randomPage(Random random) {
    byte[] bytes = new byte[1 + random.nextInt(16)];
    String markup = "<>\"'&=/ \t\n;#!-?[]\\`~@\0";
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) switch (random.nextInt(4)) {
        case 0 -> random.nextInt(128);
        case 1 -> markup.charAt(random.nextInt(markup.length()));
        case 2 -> 0x80 + random.nextInt(64); // continuation bytes
        default -> 0x80 + random.nextInt(128);
      };
    }
    return bytes;
  }

  @Test
  void string_rangesBetweenAsciiBytesInTransparentCharsets_decodeAsTheWholePageDoes() {
    Random random = new Random(17);
    List<Charset> transparent = Charset.availableCharsets().values().stream()
        .filter(PageText::asciiTransparent).toList();
    for (Charset charset : transparent) {
      for (int round = 0; round < 20_000; round++) {
        byte[] bytes = randomPage(random);
        PageText text = new PageText(bytes, 0, bytes.length, charset);
        StringBuilder pieces = new StringBuilder();
        int i = 0;
        while (i < bytes.length) {
          int to = i + 1;
          if (bytes[i] < 0) {
            while (to < bytes.length && bytes[to] < 0) {
              to++;
            }
            assertThat(text.string(i, to)).as(charset + " %s", hex(bytes))
                .isEqualTo(decode(charset, bytes, i, to))
                .doesNotContainPattern("[\\x00-\\x7F]");
          } else {
            assertThat(text.string(i, to)).isEqualTo(String.valueOf((char) bytes[i]));
          }
          pieces.append(text.string(i, to));
          i = to;
        }
        assertThat(pieces.toString()).as(charset + " %s", hex(bytes))
            .isEqualTo(decode(charset, bytes, 0, bytes.length));
      }
    }
    assertThat(transparent).extracting(Charset::name)
        .contains("UTF-8", "US-ASCII", "ISO-8859-1", "windows-1252", "windows-1251", "KOI8-R")
        .doesNotContainAnyElementsOf(NOT_TRANSPARENT);
  }

  @Test
  void of_charsetWhereAsciiBytesCanBePartOfCharacters_isTheWholeDecodeAsUtf8() {
    Random random = new Random(18);
    for (String name : NOT_TRANSPARENT) {
      Charset charset = Charset.forName(name);
      for (int round = 0; round < 2_000; round++) {
        byte[] page = concat("<p>".getBytes(charset), randomPage(random));
        PageText text = PageText.of(page, "text/html; charset=" + name);

        assertThat(text.charset).isEqualTo(StandardCharsets.UTF_8);
        assertThat(text.string(text.start, text.end)).as(name + " %s", hex(page))
            .isEqualTo(decode(charset, page, 0, page.length));
      }
    }
  }

  @Test
  void of_utf8Page_readsTheBodyItselfAfterItsByteOrderMark() {
    byte[] page = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
        "<a href=\"é\">".getBytes(StandardCharsets.UTF_8));

    PageText text = PageText.of(page, "text/html; charset=windows-1252");

    assertThat(text.bytes).isSameAs(page);
    assertThat(text.start).isEqualTo(3);
    assertThat(text.end).isEqualTo(page.length);
    assertThat(text.string(text.start, text.end)).isEqualTo("<a href=\"é\">");
  }

  @Test
  void of_utf16PageWithByteOrderMark_transcodedWithoutIt() {
    byte[] page = "\uFEFF<a href=\"\u3C22\">".getBytes(StandardCharsets.UTF_16BE);

    PageText text = PageText.of(page, null);

    assertThat(text.bytes).isNotSameAs(page);
    assertThat(text.string(text.start, text.end)).isEqualTo("<a href=\"\u3C22\">");
  }

  @Test
  void startsWith_asciiAtPosition_caseSensitiveOrNot() {
    byte[] bytes = "x<!DocType".getBytes(StandardCharsets.US_ASCII);
    PageText text = new PageText(bytes, 0, bytes.length, StandardCharsets.UTF_8);

    assertThat(text.startsWith(1, "<!")).isTrue();
    assertThat(text.startsWith(3, "DOCTYPE")).isFalse();
    assertThat(text.startsWithIgnoreCase(3, "DOCTYPE")).isTrue();
    assertThat(text.startsWithIgnoreCase(4, "OCTYPE ")).isFalse(); // past the end
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }
}

package dev.sieve.parse;

/**
 * Skips script text to its end tag the way Jsoup's script-data states do: inside an escape that
 * {@code <!--} opens, a nested {@code <script>} hides the next {@code </script>} until {@code -->}
 * or its own {@code </script>} ends it.
 */
final class ScriptSkipper {

  private static final int DATA = 0;
  private static final int ESCAPED = 1;
  private static final int ESCAPED_DASH = 2;
  private static final int ESCAPED_DASH_DASH = 3;
  private static final int DOUBLE_ESCAPED = 4;
  private static final int DOUBLE_ESCAPED_DASH = 5;
  private static final int DOUBLE_ESCAPED_DASH_DASH = 6;

  private final PageText page;
  private final byte[] text;
  private final int end;
  private final HtmlTokenizer tokenizer;

  ScriptSkipper(PageText page, HtmlTokenizer tokenizer) {
    this.page = page;
    this.text = page.bytes;
    this.end = page.end;
    this.tokenizer = tokenizer;
  }

  /** Skips from {@code p} past the end tag of {@code name} (reported), or to the end of input. */
  int skip(int p, String name) {
    int state = DATA;
    while (p < end) {
      byte c = text[p];
      switch (state) {
        case DATA -> {
          if (c == '<') {
            int after = tokenizer.endTagAt(p, name);
            if (after >= 0) {
              return after;
            }
            if (page.startsWith(p + 1, "!--")) {
              state = ESCAPED_DASH_DASH;
              p += 3;
            }
          }
          p++;
        }
        case ESCAPED, ESCAPED_DASH, ESCAPED_DASH_DASH -> {
          if (c == '<') {
            int after = tokenizer.endTagAt(p, name);
            if (after >= 0) {
              return after;
            }
            p++;
            if (p < end && CharRefs.isAsciiLetter(text[p])) {
              int wordEnd = word(p);
              state = scriptWordEndsAt(p, wordEnd) ? DOUBLE_ESCAPED : ESCAPED;
              p = wordEnd < end && isWordEnd(text[wordEnd]) ? wordEnd + 1 : wordEnd;
            } else {
              state = ESCAPED;
            }
          } else if (c == '-') {
            state = state == ESCAPED ? ESCAPED_DASH : ESCAPED_DASH_DASH;
            p++;
          } else {
            state = c == '>' && state == ESCAPED_DASH_DASH ? DATA : ESCAPED;
            p++;
          }
        }
        default -> { // the double-escaped states
          if (c == '<') {
            p++;
            if (p < end && text[p] == '/') {
              p++;
              int wordEnd = word(p);
              state = scriptWordEndsAt(p, wordEnd) ? ESCAPED : DOUBLE_ESCAPED;
              p = wordEnd < end && isWordEnd(text[wordEnd]) ? wordEnd + 1 : wordEnd;
            } else {
              state = DOUBLE_ESCAPED;
            }
          } else if (c == '-') {
            state = state == DOUBLE_ESCAPED ? DOUBLE_ESCAPED_DASH : DOUBLE_ESCAPED_DASH_DASH;
            p++;
          } else {
            state = c == '>' && state == DOUBLE_ESCAPED_DASH_DASH ? DATA : DOUBLE_ESCAPED;
            p++;
          }
        }
      }
    }
    return end;
  }

  private int word(int p) {
    while (p < end && CharRefs.isAsciiLetter(text[p])) {
      p++;
    }
    return p;
  }

  /** True if letters {@code text[from, to)} are "script" in any case and a word end follows. */
  private boolean scriptWordEndsAt(int from, int to) {
    return to < end && isWordEnd(text[to]) && to - from == 6
        && page.startsWithIgnoreCase(from, "SCRIPT");
  }

  private static boolean isWordEnd(byte c) {
    return HtmlTokenizer.isWhitespace(c) || c == '/' || c == '>';
  }
}

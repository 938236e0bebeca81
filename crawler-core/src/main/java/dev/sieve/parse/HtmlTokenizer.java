package dev.sieve.parse;

/**
 * A streaming HTML tokenizer over a page's bytes ({@link PageText}: markup is ASCII there) that
 * reports tags and comments to a {@link TokenSink} without building any tree. It follows the
 * states of Jsoup's tokenizer wherever they decide what is a tag: a tag cut off by the end of
 * input is dropped, attribute names end only at whitespace, {@code /}, {@code =} or {@code >},
 * comments close at {@code -->} or {@code --!>}, and after a start tag the sink chooses the text
 * state (raw text, script, ...). Character data is skipped, not decoded; only names and kept
 * values are decoded from their bytes. Not thread-safe; one instance reads one text.
 */
final class HtmlTokenizer {

  private final PageText page;
  private final byte[] text;
  private final int end;
  private final TokenSink sink;
  private final AttributeReader attributes;
  private final Tag tag = new Tag();
  private final TagNames names;
  private final ScriptSkipper script;

  HtmlTokenizer(PageText page, TokenSink sink) {
    this.page = page;
    this.text = page.bytes;
    this.end = page.end;
    this.sink = sink;
    this.names = new TagNames(page);
    this.attributes = new AttributeReader(page, names);
    this.script = new ScriptSkipper(page, this);
  }

  /** Reads the whole text, or until the sink is done. */
  void run() {
    int pos = page.start;
    while (pos < end && !sink.done()) {
      int lt = pos;
      while (lt < end && text[lt] != '<') {
        lt++;
      }
      if (lt > pos && sink.watchingText() && !blank(pos, lt)) {
        sink.otherNode();
      }
      pos = lt >= end ? end : markup(lt);
    }
  }

  private boolean blank(int from, int to) {
    for (int i = from; i < to; i++) {
      if (!isWhitespace(text[i])) {
        return false;
      }
    }
    return true;
  }

  /** Reads the markup starting with the {@code <} at {@code lt}; returns the position after it. */
  private int markup(int lt) {
    int p = lt + 1;
    if (p >= end) {
      return end;
    }
    byte c = text[p];
    if (c == '!') {
      return declaration(p + 1);
    } else if (c == '/') {
      p++;
      if (p >= end) {
        return end;
      } else if (CharRefs.isAsciiLetter(text[p])) {
        return tag(p, false);
      } else if (text[p] == '>') {
        return p + 1;
      }
      return bogusComment(p);
    } else if (c == '?') {
      return bogusComment(p);
    } else if (CharRefs.isAsciiLetter(c)) {
      return tag(p, true);
    }
    if (sink.watchingText()) {
      sink.otherNode();
    }
    return p;
  }

  private int declaration(int p) {
    if (page.startsWith(p, "--")) {
      return comment(p + 2);
    }
    if (page.startsWithIgnoreCase(p, "DOCTYPE")) {
      sink.doctype();
      int gt = indexOf('>', p + 7);
      return gt < 0 ? end : gt + 1;
    }
    if (page.startsWith(p, "[CDATA[") && sink.cdataAllowed()) {
      sink.otherNode();
      for (int i = p + 7; i + 2 < end; i++) {
        if (text[i] == ']' && text[i + 1] == ']' && text[i + 2] == '>') {
          return i + 3;
        }
      }
      return end;
    }
    return bogusComment(p);
  }

  private int bogusComment(int from) {
    int gt = indexOf('>', from);
    sink.comment(page, from, gt < 0 ? end : gt);
    return gt < 0 ? end : gt + 1;
  }

  /** A comment whose text starts at {@code from}, after {@code <!--}. */
  private int comment(int from) {
    int p = from;
    // comment start: "<!-->" and "<!--->" are whole comments
    if (p < end && text[p] == '>') {
      return closeComment(from, p, p + 1);
    }
    if (page.startsWith(p, "->")) {
      return closeComment(from, p, p + 2);
    }
    while (true) {
      int dash = indexOf('-', p);
      if (dash < 0) {
        return closeComment(from, end, end);
      }
      p = dash + 1;
      if (p < end && text[p] == '-') {
        p++;
        while (p < end && text[p] == '-') {
          p++;
        }
        if (p < end && text[p] == '>') {
          return closeComment(from, dash, p + 1);
        }
        if (p + 1 < end && text[p] == '!' && text[p + 1] == '>') {
          return closeComment(from, dash, p + 2);
        }
        if (p < end && text[p] == '!') {
          p++; // "--!" then anything but '>' stays in the comment, a '-' may start its end
        }
      }
      if (p >= end) {
        return closeComment(from, end, end);
      }
    }
  }

  private int closeComment(int from, int to, int next) {
    sink.comment(page, from, Math.max(from, to));
    return next;
  }

  /** A tag whose name starts at {@code p}; returns the position after it. */
  private int tag(int p, boolean start) {
    int q = p;
    while (q < end && !isTagNameEnd(text[q])) {
      q++;
    }
    if (q >= end) {
      return end;
    }
    return finishTag(names.of(p, q), q, start);
  }

  /** Reads the rest of tag {@code name} from {@code q}, just after its name, and reports it. */
  int finishTag(String name, int q, boolean start) {
    tag.reset(name);
    int next = attributes.read(q, start && sink.wantsAttributes(name) ? tag : null);
    if (next < 0) {
      return end;
    }
    if (!start) {
      sink.endTag(name);
      return next;
    }
    tag.selfClosing(attributes.selfClosing());
    int state = sink.startTag(tag);
    return switch (state) {
      case TokenSink.RCDATA, TokenSink.RAWTEXT -> skipRawText(next, name);
      case TokenSink.SCRIPT -> script.skip(next, name);
      case TokenSink.PLAINTEXT -> end;
      default -> next;
    };
  }

  /** Skips RCDATA or RAWTEXT up to the end tag of {@code name}, which it reports. */
  private int skipRawText(int p, String name) {
    while (true) {
      int lt = indexOf('<', p);
      if (lt < 0) {
        return end;
      }
      int after = endTagAt(lt, name);
      if (after != -1) {
        return after;
      }
      p = lt + 1;
    }
  }

  /**
   * If an end tag for {@code name} starts at the {@code <} at {@code lt}, reads and reports it and
   * returns the position after it; else -1.
   */
  int endTagAt(int lt, String name) {
    int p = lt + 1;
    if (p + 1 >= end || text[p] != '/' || !CharRefs.isAsciiLetter(text[p + 1])) {
      return -1;
    }
    int from = p + 1;
    int q = from;
    while (q < end && CharRefs.isAsciiLetter(text[q])) {
      q++;
    }
    if (q >= end || q - from != name.length() || !page.startsWithIgnoreCase(from, name)) {
      return -1;
    }
    byte c = text[q];
    if (isWhitespace(c) || c == '/' || c == '>') {
      return finishTag(name, q, false);
    }
    return -1;
  }

  private int indexOf(int c, int from) {
    for (int i = from; i < end; i++) {
      if (text[i] == c) {
        return i;
      }
    }
    return -1;
  }

  static boolean isWhitespace(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }

  private static boolean isTagNameEnd(byte c) {
    return isWhitespace(c) || c == '/' || c == '>';
  }
}

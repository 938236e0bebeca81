package dev.sieve.parse;

/**
 * Reads a tag's attributes, from just after its name to its {@code >}, with the attribute states
 * of Jsoup's tokenizer: names end at whitespace, {@code /}, {@code =} or {@code >} (quotes and
 * {@code <} belong to them), values may be double-, single- or unquoted, character references are
 * decoded in values, and a NUL becomes U+FFFD. Collecting the attributes is optional: a tag that
 * carries no link is only walked over.
 */
final class AttributeReader {

  private static final int BEFORE_NAME = 0;
  private static final int NAME = 1;
  private static final int AFTER_NAME = 2;
  private static final int BEFORE_VALUE = 3;
  private static final int QUOTED = 4;
  private static final int UNQUOTED = 5;
  private static final int AFTER_QUOTED = 6;
  private static final int SELF_CLOSING = 7;

  /** Bytes that end an attribute name: whitespace, {@code /}, {@code =} and {@code >}. */
  private static final boolean[] NAME_END = bytesOf(" \t\n\r\f/=>");
  /** Bytes that end an unquoted value: whitespace and {@code >}. */
  private static final boolean[] UNQUOTED_END = bytesOf(" \t\n\r\f>");

  private final PageText page;
  private final byte[] text;
  private final int end;
  private final CharRefs refs = new CharRefs();
  private final TagNames names;
  /**
   * The attribute name being read is text[nameFrom, nameTo), after oddName if a NUL made it odd
   * (its text is then oddName, U+FFFD and what follows).
   */
  private int nameFrom;
  private int nameTo;
  private final StringBuilder oddName = new StringBuilder();
  private boolean odd;
  /** Whether the value being read is kept: its tag is collected and its name matters. */
  private boolean keep;
  /** The lower-case name of a kept value. */
  private String keptName;
  /** A kept value: its bytes from runFrom on are yet to be decoded, appended to value. */
  private int runFrom;
  private final StringBuilder value = new StringBuilder();
  /** The kept value read, null if the attribute has none. */
  private String valueText;
  private boolean selfClosing;

  AttributeReader(PageText page, TagNames names) {
    this.page = page;
    this.text = page.bytes;
    this.end = page.end;
    this.names = names;
  }

  private static boolean[] bytesOf(String ascii) {
    boolean[] table = new boolean[256];
    for (char c : ascii.toCharArray()) {
      table[c] = true;
    }
    return table;
  }

  /** Whether the tag just read ended with {@code />}. */
  boolean selfClosing() {
    return selfClosing;
  }

  /**
   * Reads from {@code p}, the first character after the tag name, adding attributes to {@code
   * into} unless it is null; returns the position after the tag, or -1 if the input ends first
   * (the tag is then dropped).
   */
  int read(int p, Tag into) {
    boolean collect = into != null;
    keep = false;
    selfClosing = false;
    nameFrom = nameTo = 0;
    odd = false;
    valueText = null;
    int state = BEFORE_NAME; // the tag name ends like an attribute: at whitespace, '/' or '>'
    byte quote = 0;
    while (true) {
      if (p >= end) {
        return -1;
      }
      byte c = text[p++];
      switch (state) {
        case BEFORE_NAME -> {
          if (c == '/') {
            state = SELF_CLOSING;
          } else if (c == '>') {
            return emit(into, p);
          } else if (HtmlTokenizer.isWhitespace(c)) {
            p = whitespaceEnd(p);
          } else {
            commit(into);
            nameFrom = p - 1;
            p = nameEnd(p);
            nameTo = p;
            state = NAME;
          }
        }
        case NAME -> { // c ends the name: nameEnd read the rest
          if (HtmlTokenizer.isWhitespace(c)) {
            state = AFTER_NAME;
          } else if (c == '/') {
            state = SELF_CLOSING;
          } else if (c == '=') {
            keptName = collect ? keptName() : null;
            keep = keptName != null;
            state = BEFORE_VALUE;
          } else {
            return emit(into, p); // '>'
          }
        }
        case AFTER_NAME -> {
          if (c == '/') {
            state = SELF_CLOSING;
          } else if (c == '=') {
            keptName = collect ? keptName() : null;
            keep = keptName != null;
            state = BEFORE_VALUE;
          } else if (c == '>') {
            return emit(into, p);
          } else if (c == 0) {
            if (!odd) {
              odd = true;
              oddName.setLength(0);
            }
            oddName.append(page.string(nameFrom, nameTo));
            oddName.append('\uFFFD'); // Jsoup adds it to the name just read
            nameFrom = p;
            p = nameEnd(p);
            nameTo = p;
            state = NAME;
          } else if (!HtmlTokenizer.isWhitespace(c)) {
            commit(into);
            nameFrom = p - 1;
            p = nameEnd(p);
            nameTo = p;
            state = NAME;
          }
        }
        case BEFORE_VALUE -> {
          if (c == '"' || c == '\'') {
            quote = c;
            startValue(p);
            // A value no link needs (class, title, style…) goes straight to its closing quote.
            p = keep ? keptValueEnd(p, quote) : quoteEnd(p, quote);
            if (p < end && text[p] == quote) {
              endValue(p++);
              state = AFTER_QUOTED;
            } else {
              state = QUOTED;
            }
          } else if (c == '>') {
            return emit(into, p);
          } else if (!HtmlTokenizer.isWhitespace(c)) {
            p--;
            startValue(p);
            state = UNQUOTED;
          }
        }
        case QUOTED -> { // a kept value's closing quote, & or NUL (others are read at once)
          if (c == quote) {
            endValue(p - 1);
            state = AFTER_QUOTED;
          } else {
            p = keptValueEnd(special(c, p, quote), quote);
          }
        }
        case UNQUOTED -> {
          if (HtmlTokenizer.isWhitespace(c)) {
            endValue(p - 1);
            state = BEFORE_NAME;
          } else if (c == '>') {
            endValue(p - 1);
            return emit(into, p);
          } else if (!keep) {
            p = unquotedEnd(p);
          } else if (c == '&' || c == 0) {
            p = special(c, p, '>');
          } else {
            p = keptValueEnd(p, '>');
          }
        }
        case AFTER_QUOTED -> {
          if (HtmlTokenizer.isWhitespace(c)) {
            p = whitespaceEnd(p);
            state = BEFORE_NAME;
          } else if (c == '/') {
            state = SELF_CLOSING;
          } else if (c == '>') {
            return emit(into, p);
          } else {
            p--;
            state = BEFORE_NAME;
          }
        }
        default -> { // SELF_CLOSING
          if (c == '>') {
            selfClosing = true;
            return emit(into, p);
          }
          p--;
          state = BEFORE_NAME;
        }
      }
    }
  }

  /** The first byte from {@code p} on that ends an attribute name, or the end. */
  private int nameEnd(int p) {
    while (p < end && !NAME_END[text[p] & 0xFF]) {
      p++;
    }
    return p;
  }

  /** The first byte from {@code p} on that is not whitespace, or the end. */
  private int whitespaceEnd(int p) {
    while (p < end && HtmlTokenizer.isWhitespace(text[p])) {
      p++;
    }
    return p;
  }

  /** The first {@code quote} from {@code p} on, or the end. */
  private int quoteEnd(int p, int quote) {
    while (p < end && text[p] != quote) {
      p++;
    }
    return p;
  }

  /** The first byte from {@code p} on that ends an unquoted value, or the end. */
  private int unquotedEnd(int p) {
    while (p < end && !UNQUOTED_END[text[p] & 0xFF]) {
      p++;
    }
    return p;
  }

  /**
   * The first byte from {@code p} on that ends a kept value or is an {@code &} or NUL in it, or the
   * end; {@code quote} ends the value, or whitespace and {@code >} do when it is {@code >}.
   */
  private int keptValueEnd(int p, int quote) {
    if (quote == '>') {
      while (p < end && !UNQUOTED_END[text[p] & 0xFF] && text[p] != '&' && text[p] != 0) {
        p++;
      }
    } else {
      while (p < end && text[p] != quote && text[p] != '&' && text[p] != 0) {
        p++;
      }
    }
    return p;
  }

  /** A value starts at {@code p}. */
  private void startValue(int p) {
    if (keep) {
      runFrom = p;
      value.setLength(0);
    }
  }

  /**
   * Adds a kept value's {@code &} or NUL {@code c}, read at {@code p - 1}, and the text before it;
   * returns where reading goes on.
   */
  private int special(byte c, int p, int quote) {
    value.append(page.string(runFrom, p - 1));
    runFrom = p;
    if (c == 0) {
      value.append('\uFFFD');
      return p;
    }
    int next = refs.decode(text, p, end, quote, value);
    if (next < 0) {
      value.append('&');
      return p;
    }
    runFrom = next;
    return next;
  }

  /** The value ends before {@code to}. */
  private void endValue(int to) {
    if (keep) {
      String rest = page.string(runFrom, to);
      valueText = value.length() == 0 ? rest : value.append(rest).toString();
    }
  }

  private int emit(Tag into, int p) {
    commit(into);
    return p;
  }

  /** The lower-case name of the attribute being read if it matters to a scan, else null. */
  private String keptName() {
    return odd ? TagNames.ifAttribute(LinkRules.lowerCase(oddName + page.string(nameFrom, nameTo)))
        : names.attribute(nameFrom, nameTo);
  }

  /** Ends the attribute being read, if any, adding it to {@code into}. */
  private void commit(Tag into) {
    if (into != null && (odd || nameTo > nameFrom)) {
      String name = keep ? keptName : keptName();
      if (name != null) {
        into.add(name, keep ? valueText : null);
      } else {
        into.count(); // one that carries no link only counts: Tag caps how many a tag has
      }
    }
    nameFrom = nameTo = 0;
    odd = false;
    keep = false;
    valueText = null;
  }
}

package dev.sieve.parse;

import java.util.Arrays;

/**
 * The start tag an {@link HtmlTokenizer} is reading: its lower-case name, whether it ends with
 * {@code />}, and, if collected, its attributes. Reused from tag to tag, so valid only during the
 * {@link TokenSink#startTag} call that received it.
 */
final class Tag implements LinkRules.Attributes {

  /** Attributes past this many on one tag are dropped, as Jsoup drops them. */
  static final int MAX_ATTRIBUTES = 512;

  private String name;
  private boolean selfClosing;
  private String[] names = new String[8];
  private String[] values = new String[8];
  private int count;
  private int seen;

  void reset(String name) {
    this.name = name;
    this.selfClosing = false;
    this.count = 0;
    this.seen = 0;
  }

  String name() {
    return name;
  }

  boolean selfClosing() {
    return selfClosing;
  }

  void selfClosing(boolean selfClosing) {
    this.selfClosing = selfClosing;
  }

  /**
   * Adds an attribute a scan reads: {@code lowerCaseName} is one {@link
   * LinkRules#attributeMatters}, {@code value} null if it has none.
   */
  void add(String lowerCaseName, String value) {
    if (seen >= MAX_ATTRIBUTES) {
      return;
    }
    seen++;
    if (count == names.length) {
      names = Arrays.copyOf(names, count * 2);
      values = Arrays.copyOf(values, count * 2);
    }
    names[count] = lowerCaseName;
    values[count] = value;
    count++;
  }

  /** Counts an attribute no scan reads towards {@link #MAX_ATTRIBUTES}. */
  void count() {
    if (seen < MAX_ATTRIBUTES) {
      seen++;
    }
  }

  /** Value of the first attribute named {@code attribute}, "" if it has none, null if absent. */
  @Override
  public String get(String attribute) {
    for (int i = 0; i < count; i++) {
      if (names[i].equals(attribute)) {
        return values[i] == null ? "" : values[i];
      }
    }
    return null;
  }
}

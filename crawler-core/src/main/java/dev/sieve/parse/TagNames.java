package dev.sieve.parse;

import java.util.Set;

/**
 * Lower-case tag and attribute names read from a page's bytes, without a new String for each tag:
 * an ASCII name seen before on this page comes from a small table. Not thread-safe; one per
 * tokenizer.
 */
final class TagNames {

  private static final int SLOTS = 256;

  /** {@link LinkRules#ATTRIBUTES} by length. */
  private static final String[][] ATTRIBUTES = byLength(LinkRules.ATTRIBUTES);

  private final String[] table = new String[SLOTS];
  private final PageText page;
  private final byte[] text;

  TagNames(PageText page) {
    this.page = page;
    this.text = page.bytes;
  }

  /** The lower-case name spelled by {@code text[from, to)}. */
  String of(int from, int to) {
    int hash = 0;
    for (int i = from; i < to; i++) {
      byte c = text[i];
      if (c < 0) {
        return LinkRules.lowerCase(page.string(from, to));
      }
      hash = 31 * hash + CharRefs.lowerAscii(c);
    }
    int slot = (hash ^ (hash >>> 8)) & (SLOTS - 1);
    String cached = table[slot];
    if (cached != null && matches(cached, from, to)) {
      return cached;
    }
    char[] name = new char[to - from];
    for (int i = from; i < to; i++) {
      name[i - from] = CharRefs.lowerAscii(text[i]);
    }
    String made = new String(name);
    table[slot] = made;
    return made;
  }

  /**
   * The lower-case name spelled by {@code text[from, to)} if {@link LinkRules#attributeMatters} it,
   * else null; one that matters is found among a few of the same length, without a new String.
   */
  String attribute(int from, int to) {
    int length = to - from;
    if (length < ATTRIBUTES.length) {
      for (String name : ATTRIBUTES[length]) {
        if (matches(name, from, to)) {
          return name;
        }
      }
    }
    for (int i = from; i < to; i++) {
      if (text[i] < 0) {
        return ifAttribute(LinkRules.lowerCase(page.string(from, to)));
      }
    }
    return null;
  }

  /** {@code lowerCaseName} if {@link LinkRules#attributeMatters} it, else null. */
  static String ifAttribute(String lowerCaseName) {
    return LinkRules.attributeMatters(lowerCaseName) ? lowerCaseName : null;
  }

  private static String[][] byLength(Set<String> names) {
    int longest = names.stream().mapToInt(String::length).max().orElse(0);
    String[][] byLength = new String[longest + 1][];
    for (int length = 0; length <= longest; length++) {
      int n = length;
      byLength[length] = names.stream().filter(name -> name.length() == n).sorted()
          .toArray(String[]::new);
    }
    return byLength;
  }

  private boolean matches(String name, int from, int to) {
    return name.length() == to - from && page.startsWithIgnoreCase(from, name);
  }
}

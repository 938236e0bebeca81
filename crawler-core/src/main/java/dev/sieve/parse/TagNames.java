package dev.sieve.parse;

/**
 * Lower-case tag and attribute names read from a page's bytes, without a new String for each tag:
 * an ASCII name seen before on this page comes from a small table. Not thread-safe; one per
 * tokenizer.
 */
final class TagNames {

  private static final int SLOTS = 256;

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

  private boolean matches(String name, int from, int to) {
    if (name.length() != to - from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (name.charAt(i - from) != CharRefs.lowerAscii(text[i])) {
        return false;
      }
    }
    return true;
  }
}

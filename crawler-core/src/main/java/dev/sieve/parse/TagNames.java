package dev.sieve.parse;

/**
 * Lower-case tag names read from text, without a new String for each tag: an ASCII name seen
 * before on this page comes from a small table. Not thread-safe; one per tokenizer.
 */
final class TagNames {

  private static final int SLOTS = 256;

  private final String[] table = new String[SLOTS];

  /** The lower-case name spelled by {@code text[from, to)}. */
  String of(char[] text, int from, int to) {
    int hash = 0;
    for (int i = from; i < to; i++) {
      char c = text[i];
      if (c >= 128) {
        return LinkRules.lowerCase(new String(text, from, to - from));
      }
      hash = 31 * hash + lower(c);
    }
    int slot = (hash ^ (hash >>> 8)) & (SLOTS - 1);
    String cached = table[slot];
    if (cached != null && matches(cached, text, from, to)) {
      return cached;
    }
    char[] name = new char[to - from];
    for (int i = from; i < to; i++) {
      name[i - from] = lower(text[i]);
    }
    String made = new String(name);
    table[slot] = made;
    return made;
  }

  private static boolean matches(String name, char[] text, int from, int to) {
    if (name.length() != to - from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (name.charAt(i - from) != lower(text[i])) {
        return false;
      }
    }
    return true;
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }
}

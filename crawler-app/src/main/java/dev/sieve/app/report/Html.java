package dev.sieve.app.report;

/** Escaping for text that goes into HTML or SVG, as element content or a quoted attribute. */
final class Html {
  private Html() {}

  /**
   * {@code text} with {@code & < > " '} as character references, and control characters other
   * than tab and newline dropped (XML 1.0 refuses them); safe in content and in quoted attributes.
   */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (c >= 0x20 || c == '\t' || c == '\n') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}

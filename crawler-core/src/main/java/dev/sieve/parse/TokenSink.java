package dev.sieve.parse;

/** Receives the tokens an {@link HtmlTokenizer} finds, and tells it how to read what follows. */
interface TokenSink {

  /** Text states the tokenizer reads in after a start tag, as the HTML tree builder sets them. */
  int DATA = 0;
  /** Text with character references up to its end tag ({@code title}, {@code textarea}). */
  int RCDATA = 1;
  /** Raw text up to the matching end tag ({@code style}, {@code xmp}, {@code iframe}, ...). */
  int RAWTEXT = 2;
  /** Script text, whose {@code <!--} escapes can hide a {@code </script>}. */
  int SCRIPT = 3;
  /** Raw text to the end of the input. */
  int PLAINTEXT = 4;

  /** Whether the tokenizer should collect the attributes of start tag {@code name} (lower case). */
  boolean wantsAttributes(String name);

  /** A start tag; returns the text state to read the following input in. */
  int startTag(Tag tag);

  /** An end tag named {@code name} (lower case). */
  void endTag(String name);

  /** Whether a {@code <![CDATA[} section may start here (only inside SVG or MathML). */
  boolean cdataAllowed();

  /** A comment, real or bogus, whose text is bytes {@code [from, to)} of {@code page}. */
  void comment(PageText page, int from, int to);

  /** A node that is neither a tag nor a comment: a CDATA section or non-blank text. */
  void otherNode();

  /** A doctype: a node, but one that leaves a later {@code <frameset>} possible. */
  default void doctype() {
    otherNode();
  }

  /** Whether the sink wants {@link #otherNode} for non-blank text (scanning text costs time). */
  boolean watchingText();

  /** True once the sink needs no more tokens. */
  boolean done();
}

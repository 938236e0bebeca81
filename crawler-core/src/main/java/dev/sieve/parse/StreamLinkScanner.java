package dev.sieve.parse;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;

/**
 * The streaming {@link LinkScanner}: decodes the body once (into a per-thread buffer), then one
 * tokenizer pass reports the elements that can carry links, with the parts of tree construction
 * that decide which tags become elements; no tree is built. Agrees with {@link DomLinkScanner} on
 * every page of the test corpora.
 */
final class StreamLinkScanner implements LinkScanner {

  static final StreamLinkScanner INSTANCE = new StreamLinkScanner();

  /** Decoded text buffers up to this many chars are kept for the thread's next page. */
  private static final int KEPT_BUFFER_CHARS = 1 << 21;

  private static final ThreadLocal<char[]> BUFFER = ThreadLocal.withInitial(() -> new char[0]);

  private StreamLinkScanner() {}

  @Override
  public PageLinks scan(byte[] body, String contentType) {
    if (body == null || body.length == 0) {
      return PageLinks.empty();
    }
    CharsetSniffer.Choice choice = CharsetSniffer.choose(body, contentType);
    CharsetDecoder decoder = choice.charset().newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    int length = body.length - choice.offset();
    int capacity = (int) Math.min(Integer.MAX_VALUE - 16,
        (long) Math.ceil(length * (double) decoder.maxCharsPerByte()) + 4);
    char[] text = BUFFER.get();
    if (text.length < capacity) {
      text = new char[capacity];
      if (capacity <= KEPT_BUFFER_CHARS) {
        BUFFER.set(text);
      }
    }
    CharBuffer out = CharBuffer.wrap(text);
    decoder.decode(ByteBuffer.wrap(body, choice.offset(), length), out, true);
    decoder.flush(out);
    PageLinks.Builder page = PageLinks.builder();
    TreeTracker tracker =
        new TreeTracker((name, attributes) -> LinkRules.apply(name, attributes, page));
    new HtmlTokenizer(text, out.position(), tracker).run();
    return page.build();
  }
}

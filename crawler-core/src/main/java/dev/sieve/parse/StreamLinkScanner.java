package dev.sieve.parse;

/**
 * The streaming {@link LinkScanner}: decodes the body once, then one tokenizer pass reports the
 * elements that can carry links, with the parts of tree construction that decide which tags become
 * elements; no tree is built. Agrees with {@link DomLinkScanner} on every page of the test corpora.
 */
final class StreamLinkScanner implements LinkScanner {

  static final StreamLinkScanner INSTANCE = new StreamLinkScanner();

  private StreamLinkScanner() {}

  @Override
  public PageLinks scan(byte[] body, String contentType) {
    if (body == null || body.length == 0) {
      return PageLinks.empty();
    }
    CharsetSniffer.Choice choice = CharsetSniffer.choose(body, contentType);
    char[] text = new String(body, choice.offset(), body.length - choice.offset(),
        choice.charset()).toCharArray();
    PageLinks.Builder page = PageLinks.builder();
    TreeTracker tracker =
        new TreeTracker((name, attributes) -> LinkRules.apply(name, attributes, page));
    new HtmlTokenizer(text, text.length, tracker).run();
    return page.build();
  }
}

package dev.sieve.parse;

/**
 * The streaming {@link LinkScanner}: one tokenizer pass over the page's bytes ({@link PageText})
 * reports the elements that can carry links, with the parts of tree construction that decide which
 * tags become elements; no tree is built, and only the names and values it keeps are decoded.
 * Agrees with {@link DomLinkScanner} on every page of the test corpora.
 */
final class StreamLinkScanner implements LinkScanner {

  static final StreamLinkScanner INSTANCE = new StreamLinkScanner();

  private StreamLinkScanner() {}

  @Override
  public PageLinks scan(byte[] body, String contentType) {
    if (body == null || body.length == 0) {
      return PageLinks.empty();
    }
    PageText text = PageText.of(body, contentType);
    PageLinks.Builder page = PageLinks.builder();
    TreeTracker tracker =
        new TreeTracker((name, attributes) -> LinkRules.apply(name, attributes, page));
    new HtmlTokenizer(text, tracker).run();
    return page.build();
  }
}

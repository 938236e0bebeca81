package dev.sieve.parse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;

/**
 * The reference {@link LinkScanner}: Jsoup parses the page into a DOM, whose elements are then
 * visited in tree order. Slow (the DOM costs far more than the links), but it is what a browser
 * builds, so the streaming scanner is tested against it.
 */
final class DomLinkScanner implements LinkScanner {

  static final DomLinkScanner INSTANCE = new DomLinkScanner();

  private DomLinkScanner() {}

  @Override
  public PageLinks scan(byte[] body, String contentType) {
    if (body == null || body.length == 0) {
      return PageLinks.empty();
    }
    Document doc;
    try {
      doc = Jsoup.parse(new ByteArrayInputStream(body), HeaderCharset.of(contentType), "");
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      // Not expected from an in-memory stream; a bad charset is the likeliest cause.
      return PageLinks.empty();
    }
    PageLinks.Builder page = PageLinks.builder();
    doc.traverse(new NodeVisitor() {
      @Override
      public void head(Node node, int depth) {
        if (node instanceof Element element && LinkRules.matters(element.normalName())) {
          LinkRules.apply(element.normalName(),
              name -> element.hasAttr(name) ? element.attr(name) : null, page);
        }
      }
    });
    return page.build();
  }
}

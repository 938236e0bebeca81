package dev.sieve.parse;

import java.util.Arrays;
import java.util.Set;

/**
 * The part of HTML tree construction that decides which start tags become elements and how the
 * text after a tag is read, without building the tree: raw-text and script elements, framesets,
 * {@code <noscript>} (parsed as markup, as Jsoup does with scripting off), SVG and MathML (where
 * CDATA sections exist and a {@code <title>} is not raw text). Jsoup (1.24) parses a {@code
 * <select>}'s content like any other, so no tag is dropped there. Each element that can carry a
 * link is passed to an {@link Elements} as it starts. Not thread-safe. Not modelled: a {@code
 * <frameset>} after body content without text, which Jsoup lets replace the body.
 */
final class TreeTracker implements TokenSink {

  /** Receives the elements that can carry a link, in document order. */
  interface Elements {
    void element(String name, LinkRules.Attributes attributes);
  }

  private static final int HTML = 0;
  private static final int FRAMESET = 1;

  private static final byte NS_HTML = 0;
  private static final byte NS_SVG = 1;
  private static final byte NS_MATH = 2;

  private static final Set<String> BREAKOUT = Set.of("b", "big", "blockquote", "body", "br",
      "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6",
      "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby",
      "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var");
  private static final Set<String> VOID = Set.of("area", "base", "basefont", "bgsound", "br",
      "col", "command", "device", "embed", "frame", "hr", "img", "input", "keygen", "link",
      "menuitem", "meta", "param", "source", "track", "wbr");
  private static final Set<String> FRAMESET_SPOILERS = Set.of("body", "pre", "listing", "li",
      "dd", "dt", "button", "applet", "marquee", "object", "table", "area", "br", "embed", "img",
      "keygen", "wbr", "input", "hr", "textarea", "xmp", "iframe", "select");

  private final Elements out;
  private int mode = HTML;
  private boolean framesetOk = true;
  private boolean noscript;
  private boolean firstNodeSeen;
  private String firstComment;
  private boolean done;
  /** Open elements from the outermost {@code <svg>} or {@code <math>} down, with namespaces. */
  private String[] names = new String[16];
  private byte[] spaces = new byte[16];
  private boolean[] integration = new boolean[16];
  private int depth;

  TreeTracker(Elements out) {
    this.out = out;
  }

  /** Stops the tokenizer feeding this tracker. */
  void stop() {
    done = true;
  }

  /** The text of the comment that is the document's first node, or null if it is not one. */
  String firstComment() {
    return firstComment;
  }

  @Override
  public boolean done() {
    return done;
  }

  @Override
  public boolean wantsAttributes(String name) {
    return LinkRules.matters(name) || name.equals("font") || name.equals("annotation-xml");
  }

  @Override
  public boolean cdataAllowed() {
    return !noscript && depth > 0 && spaces[depth - 1] != NS_HTML;
  }

  @Override
  public void comment(PageText page, int from, int to) {
    if (!firstNodeSeen) {
      firstNodeSeen = true;
      firstComment = page.string(from, to);
    }
  }

  @Override
  public void otherNode() {
    firstNodeSeen = true;
    framesetOk = false;
  }

  @Override
  public void doctype() {
    firstNodeSeen = true; // as in HTML's tree construction, a doctype leaves frameset-ok alone
  }

  @Override
  public boolean watchingText() {
    return framesetOk || !firstNodeSeen;
  }

  @Override
  public int startTag(Tag tag) {
    firstNodeSeen = true;
    String name = tag.name();
    if (noscript) {
      element(name, tag);
      return tag.selfClosing() ? DATA : textState(name);
    }
    if (depth > 0 && foreignAtTop(name)) {
      return foreignStart(name, tag);
    }
    return htmlStart(name, tag);
  }

  /** Whether a start tag {@code name} goes by foreign-content rules at the current node. */
  private boolean foreignAtTop(String name) {
    int top = depth - 1;
    if (spaces[top] == NS_HTML || integration[top]) {
      return false;
    }
    if (spaces[top] == NS_MATH) {
      String current = names[top];
      boolean textPoint = current.equals("mi") || current.equals("mo") || current.equals("mn")
          || current.equals("ms") || current.equals("mtext");
      if (textPoint && !name.equals("mglyph") && !name.equals("malignmark")) {
        return false;
      }
      return !(current.equals("annotation-xml") && name.equals("svg"));
    }
    return true;
  }

  private int foreignStart(String name, Tag tag) {
    if (BREAKOUT.contains(name) || (name.equals("font") && (tag.get("color") != null
        || tag.get("face") != null || tag.get("size") != null))) {
      while (depth > 0 && spaces[depth - 1] != NS_HTML && !integration[depth - 1]) {
        depth--;
      }
      return htmlStart(name, tag);
    }
    element(name, tag);
    byte space = spaces[depth - 1];
    if (!tag.selfClosing()) {
      boolean point = space == NS_SVG
          ? name.equals("foreignobject") || name.equals("desc") || name.equals("title")
          : name.equals("annotation-xml") && htmlEncoding(tag.get("encoding"));
      push(name, space, point);
    }
    // as Jsoup: an SVG script is read as script text even when written <script/>
    return space == NS_SVG && name.equals("script") ? SCRIPT : DATA;
  }

  private static boolean htmlEncoding(String encoding) {
    return encoding != null && (encoding.trim().equalsIgnoreCase("text/html")
        || encoding.trim().equalsIgnoreCase("application/xhtml+xml"));
  }

  private int htmlStart(String name, Tag tag) {
    if (mode == FRAMESET) {
      if (name.equals("frame")) {
        element(name, tag);
      }
      return name.equals("noframes") ? RAWTEXT : DATA;
    }
    if (FRAMESET_SPOILERS.contains(name)) {
      framesetOk = false;
    }
    switch (name) {
      case "frameset" -> {
        if (framesetOk && depth == 0) {
          mode = FRAMESET;
        }
        return DATA;
      }
      case "frame" -> {
        return DATA; // outside a frameset, a frame is dropped
      }
      case "noscript" -> {
        noscript = true;
        return DATA;
      }
      case "svg", "math" -> {
        if (!tag.selfClosing()) {
          push(name, name.equals("svg") ? NS_SVG : NS_MATH, false);
        }
        return DATA;
      }
      default -> { }
    }
    element(name, tag);
    if (depth > 0 && !tag.selfClosing() && !VOID.contains(name)) {
      push(name, NS_HTML, false);
    }
    return name.equals("plaintext") ? PLAINTEXT : textState(name);
  }

  /** The text state an HTML start tag {@code name} switches to. */
  private static int textState(String name) {
    switch (name) {
      case "title", "textarea":
        return RCDATA;
      case "style", "xmp", "iframe", "noembed", "noframes":
        return RAWTEXT;
      case "script":
        return SCRIPT;
      default:
        return DATA;
    }
  }

  @Override
  public void endTag(String name) {
    if (noscript) {
      noscript = !name.equals("noscript");
      return;
    }
    if (depth == 0) {
      return;
    }
    for (int i = depth - 1; i >= 0; i--) {
      if (names[i].equals(name)) {
        depth = i;
        return;
      }
      if (spaces[i] == NS_HTML || integration[i]) {
        return; // closed by HTML rules inside an integration point: approximated as ignored
      }
    }
    depth = 0; // an end tag for an element outside the SVG or MathML closes it too
  }

  private void element(String name, Tag tag) {
    if (LinkRules.matters(name)) {
      out.element(name, tag);
    }
  }

  private void push(String name, byte space, boolean point) {
    if (depth == names.length) {
      names = Arrays.copyOf(names, depth * 2);
      spaces = Arrays.copyOf(spaces, depth * 2);
      integration = Arrays.copyOf(integration, depth * 2);
    }
    names[depth] = name;
    spaces[depth] = space;
    integration[depth] = point;
    depth++;
  }
}

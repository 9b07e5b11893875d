package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * An XML file kept as its exact text plus the offsets of every element, so that a program can
 * change the text of a few elements and leave every other byte (comments, indentation, attribute
 * quoting, unrelated properties) as the operator wrote it. Immutable: {@link #edit()} returns a new
 * document.
 *
 * <p>The text is first checked by the JDK's SAX parser (well-formedness, no DTD loading, no
 * external entities); an error names the file, line, column and the element being read. The element
 * offsets come from a small scanner that only has to handle well-formed input.
 */
public final class XmlDocument {

  /** One element: its name, attributes, decoded text content, and where it sits in the text. */
  public static final class Element {
    private final String name;
    private final Map<String, String> attributes;
    private final int start;
    private final int line;
    private final Element parent;
    private final List<Element> children = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();
    private int contentStart = -1; // after '>' of the start tag; -1 for <x/>
    private int contentEnd = -1; // at '<' of the end tag
    private int end = -1; // after the end tag (or after '/>')

    private Element(
        String name, Map<String, String> attributes, int start, int line, Element parent) {
      this.name = name;
      this.attributes = Collections.unmodifiableMap(attributes);
      this.start = start;
      this.line = line;
      this.parent = parent;
    }

    public String name() {
      return name;
    }

    public Map<String, String> attributes() {
      return attributes;
    }

    public Optional<String> attribute(String key) {
      return Optional.ofNullable(attributes.get(key));
    }

    /** The element's own character data (entities decoded, CDATA included), trimmed. */
    public String text() {
      return text.toString().strip();
    }

    /** 1-based line of the start tag. */
    public int line() {
      return line;
    }

    public Element parent() {
      return parent;
    }

    public List<Element> children() {
      return Collections.unmodifiableList(children);
    }

    /** The child elements called {@code childName}, in document order. */
    public List<Element> children(String childName) {
      return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    /** The first child called {@code childName}. */
    public Optional<Element> child(String childName) {
      return children.stream().filter(c -> c.name.equals(childName)).findFirst();
    }

    /** True for {@code <x/>}. */
    public boolean selfClosing() {
      return contentStart < 0;
    }

    /** E.g. {@code <property> at line 12}. */
    public String describe() {
      return "<" + name + "> at line " + line;
    }
  }

  private final String origin;
  private final String text;
  private final Element root;

  private XmlDocument(String origin, String text, Element root) {
    this.origin = origin;
    this.text = text;
    this.root = root;
  }

  /** Reads and checks {@code file} (UTF-8). */
  public static XmlDocument read(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.MalformedInputException e) {
      throw new InvalidSchedulerFileException(file.toString(), "is not UTF-8 text");
    }
    return parse(file.toString(), text);
  }

  /**
   * Checks and indexes {@code text}; {@code origin} (usually the file name) is used in error
   * messages.
   *
   * @throws InvalidSchedulerFileException if the text is not well-formed XML
   */
  public static XmlDocument parse(String origin, String text) {
    checkWellFormed(origin, text);
    return new XmlDocument(origin, text, new Scanner(text).scan());
  }

  /** Where the text came from (file name), for messages. */
  public String origin() {
    return origin;
  }

  /** The exact text. */
  public String text() {
    return text;
  }

  /** The document element. */
  public Element root() {
    return root;
  }

  /** A builder of a changed copy of this document. */
  public Editor edit() {
    return new Editor(this);
  }

  /** Collects text changes and applies them all at once; offsets refer to the original text. */
  public static final class Editor {
    private record Change(int start, int end, String replacement, int order) {}

    private final XmlDocument doc;
    private final List<Change> changes = new ArrayList<>();
    private final Map<Element, StringBuilder> intoSelfClosing = new LinkedHashMap<>();

    private Editor(XmlDocument doc) {
      this.doc = doc;
    }

    /**
     * Replaces the content of {@code e} with {@code value} (escaped); {@code <x/>} becomes {@code
     * <x>value</x>}.
     */
    public Editor setText(Element e, String value) {
      if (e.selfClosing()) {
        String tag = doc.text.substring(e.start, e.end);
        String open = tag.substring(0, tag.length() - 2).stripTrailing() + ">";
        changes.add(
            new Change(e.start, e.end, open + escape(value) + "</" + e.name + ">", changes.size()));
      } else {
        changes.add(new Change(e.contentStart, e.contentEnd, escape(value), changes.size()));
      }
      return this;
    }

    /**
     * Inserts raw XML {@code xml} at the end of {@code parent}'s content, on its own line, indented
     * like {@code parent}'s last child (or two spaces deeper than {@code parent}).
     */
    public Editor appendChild(Element parent, String xml) {
      if (parent.selfClosing()) { // <x/> becomes <x>xml...</x>, on one line
        intoSelfClosing
            .computeIfAbsent(parent, p -> new StringBuilder())
            .append(xml.replace("\n", ""));
        return this;
      }
      int at = parent.contentEnd;
      if (doc.text.indexOf('\n', parent.start) < 0 || doc.text.indexOf('\n', parent.start) > at) {
        // <x><a/>...</x> on one line stays on one line
        changes.add(new Change(at, at, xml.replace("\n", ""), changes.size()));
        return this;
      }
      String indent =
          parent.children.isEmpty()
              ? indentOf(parent.start) + "  "
              : indentOf(parent.children.get(parent.children.size() - 1).start);
      int lineStart = doc.text.lastIndexOf('\n', at - 1) + 1;
      boolean onlySpaceBefore = doc.text.substring(lineStart, at).isBlank();
      String insertion =
          onlySpaceBefore
              ? indent + xml.replace("\n", "\n" + indent) + "\n" + doc.text.substring(lineStart, at)
              : "\n" + indent + xml.replace("\n", "\n" + indent) + "\n";
      int from = onlySpaceBefore ? lineStart : at;
      changes.add(new Change(from, at, insertion, changes.size()));
      return this;
    }

    /** The changed document, parsed and checked again. */
    public XmlDocument apply() {
      List<Change> sorted = new ArrayList<>(changes);
      intoSelfClosing.forEach(
          (e, inner) -> {
            String tag = doc.text.substring(e.start, e.end);
            String open = tag.substring(0, tag.length() - 2).stripTrailing() + ">";
            sorted.add(
                new Change(e.start, e.end, open + inner + "</" + e.name + ">", sorted.size()));
          });
      sorted.sort(Comparator.comparingInt(Change::start).thenComparingInt(Change::order));
      StringBuilder out = new StringBuilder(doc.text.length() + 256);
      int pos = 0;
      for (Change c : sorted) {
        if (c.start < pos) {
          throw new IllegalStateException("overlapping edits in " + doc.origin);
        }
        out.append(doc.text, pos, c.start).append(c.replacement);
        pos = c.end;
      }
      out.append(doc.text, pos, doc.text.length());
      return parse(doc.origin, out.toString());
    }

    private String indentOf(int offset) {
      int lineStart = doc.text.lastIndexOf('\n', offset - 1) + 1;
      String before = doc.text.substring(lineStart, offset);
      return before.isBlank() ? before : "";
    }
  }

  /**
   * XML-escapes character data. Line breaks become character references, so that a value (or a
   * property name) keeps its exact text when the editor indents the lines of inserted XML.
   */
  public static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '\n' -> b.append("&#10;");
        case '\r' -> b.append("&#13;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  // ------------------------------------------------------------------------------------------------

  private static void checkWellFormed(String origin, String text) {
    Deque<String> path = new ArrayDeque<>();
    Locator[] locator = new Locator[1];
    DefaultHandler handler =
        new DefaultHandler() {
          @Override
          public void setDocumentLocator(Locator l) {
            locator[0] = l;
          }

          @Override
          public void startElement(
              String uri, String localName, String qName, Attributes attributes) {
            path.addLast(qName);
          }

          @Override
          public void endElement(String uri, String localName, String qName) {
            path.pollLast();
          }

          @Override
          public org.xml.sax.InputSource resolveEntity(String publicId, String systemId) {
            return new InputSource(new StringReader("")); // never fetch external entities or DTDs
          }
        };
    try {
      SAXParserFactory f = SAXParserFactory.newInstance();
      f.setNamespaceAware(false);
      f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      f.setFeature("http://xml.org/sax/features/external-general-entities", false);
      f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      f.newSAXParser().parse(new InputSource(new StringReader(text)), handler);
    } catch (SAXParseException e) {
      String where = path.isEmpty() ? "" : " inside <" + String.join("/", path) + ">";
      throw new InvalidSchedulerFileException(
          origin,
          "is not well-formed XML at line "
              + e.getLineNumber()
              + ", column "
              + e.getColumnNumber()
              + where
              + ": "
              + e.getMessage());
    } catch (SAXException | IOException | ParserConfigurationException e) {
      throw new InvalidSchedulerFileException(origin, "cannot be parsed as XML: " + e.getMessage());
    }
  }

  /** Element offsets of a well-formed document. */
  private static final class Scanner {
    private final String s;
    private int i;
    private int line = 1;
    private int lineCountedTo;

    Scanner(String s) {
      this.s = s;
    }

    Element scan() {
      Element doc = new Element("#document", new LinkedHashMap<>(), 0, 1, null);
      doc.contentStart = 0;
      Element current = doc;
      int n = s.length();
      while (i < n) {
        int lt = s.indexOf('<', i);
        if (lt < 0) {
          break;
        }
        if (lt > i) {
          current.text.append(decode(s.substring(i, lt)));
        }
        if (s.startsWith("<!--", lt)) {
          i = s.indexOf("-->", lt + 4) + 3;
        } else if (s.startsWith("<![CDATA[", lt)) {
          int close = s.indexOf("]]>", lt + 9);
          current.text.append(s, lt + 9, close);
          i = close + 3;
        } else if (s.startsWith("<?", lt)) {
          i = s.indexOf("?>", lt + 2) + 2;
        } else if (s.startsWith("<!", lt)) {
          i = skipDeclaration(lt);
        } else if (s.startsWith("</", lt)) {
          int gt = s.indexOf('>', lt);
          current.contentEnd = lt;
          current.end = gt + 1;
          current = current.parent;
          i = gt + 1;
        } else {
          int gt = tagEnd(lt);
          boolean selfClosing = s.charAt(gt - 1) == '/';
          String inner = s.substring(lt + 1, selfClosing ? gt - 1 : gt);
          int nameEnd = 0;
          while (nameEnd < inner.length() && !Character.isWhitespace(inner.charAt(nameEnd))) {
            nameEnd++;
          }
          Element e =
              new Element(
                  inner.substring(0, nameEnd),
                  attributes(inner.substring(nameEnd)),
                  lt,
                  lineAt(lt),
                  current);
          current.children.add(e);
          if (selfClosing) {
            e.end = gt + 1;
          } else {
            e.contentStart = gt + 1;
            current = e;
          }
          i = gt + 1;
        }
      }
      doc.contentEnd = n;
      doc.end = n;
      return doc.children.stream()
          .filter(c -> true)
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no document element"));
    }

    private int lineAt(int offset) {
      for (int k = lineCountedTo; k < offset; k++) {
        if (s.charAt(k) == '\n') {
          line++;
        }
      }
      lineCountedTo = offset;
      return line;
    }

    /** Index of the '>' closing the start tag at {@code lt}, skipping quoted attribute values. */
    private int tagEnd(int lt) {
      char quote = 0;
      for (int k = lt + 1; k < s.length(); k++) {
        char c = s.charAt(k);
        if (quote != 0) {
          if (c == quote) {
            quote = 0;
          }
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          return k;
        }
      }
      throw new IllegalStateException("unterminated tag at offset " + lt);
    }

    private int skipDeclaration(int lt) {
      int depth = 0;
      for (int k = lt + 2; k < s.length(); k++) {
        char c = s.charAt(k);
        if (c == '[') {
          depth++;
        } else if (c == ']') {
          depth--;
        } else if (c == '>' && depth == 0) {
          return k + 1;
        }
      }
      return s.length();
    }

    private static Map<String, String> attributes(String raw) {
      Map<String, String> out = new LinkedHashMap<>();
      int k = 0;
      int n = raw.length();
      while (k < n) {
        while (k < n && Character.isWhitespace(raw.charAt(k))) {
          k++;
        }
        int eq = raw.indexOf('=', k);
        if (eq < 0) {
          break;
        }
        String key = raw.substring(k, eq).strip();
        int q = eq + 1;
        while (q < n && Character.isWhitespace(raw.charAt(q))) {
          q++;
        }
        char quote = raw.charAt(q);
        int close = raw.indexOf(quote, q + 1);
        out.put(key, decode(raw.substring(q + 1, close)));
        k = close + 1;
      }
      return out;
    }

    private static String decode(String raw) {
      if (raw.indexOf('&') < 0) {
        return raw;
      }
      StringBuilder b = new StringBuilder(raw.length());
      int k = 0;
      while (k < raw.length()) {
        char c = raw.charAt(k);
        int semi = c == '&' ? raw.indexOf(';', k) : -1;
        if (semi < 0) {
          b.append(c);
          k++;
          continue;
        }
        String entity = raw.substring(k + 1, semi);
        switch (entity) {
          case "lt" -> b.append('<');
          case "gt" -> b.append('>');
          case "amp" -> b.append('&');
          case "quot" -> b.append('"');
          case "apos" -> b.append('\'');
          default -> {
            if (entity.startsWith("#x")) {
              b.appendCodePoint(Integer.parseInt(entity.substring(2), 16));
            } else if (entity.startsWith("#")) {
              b.appendCodePoint(Integer.parseInt(entity.substring(1)));
            } else {
              b.append('&').append(entity).append(';');
            }
          }
        }
        k = semi + 1;
      }
      return b.toString();
    }
  }
}

package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A hand-written recursive-descent parser for RDL text.
 *
 * <pre>
 * document ::= { 'let' NAME '=' expr [';'] } expr
 * expr     ::= 'atom' '(' atomArgs ')'
 *            | 'window' '(' expr ',' INT ',' INT ')'
 *            | ('order' | 'all' | 'any') '(' expr { ',' expr } ')'
 *            | NAME                                   -- an expression bound by let
 * atomArgs ::= bundle ',' INT ',' INT ',' INT ',' INT     -- b, g, h, l, w
 *            | NAME '=' value { ',' NAME '=' value }    -- b=, g=, h=, l=, w= in any order, each once
 * bundle   ::= '&lt;' entry { ',' entry } '&gt;'
 * entry    ::= amount | key ':' amount                -- positional: memory, vcores, extra dimensions
 * key      ::= memory | mem | memory-mb | vcores | vcore | cpu | r2 | r3 | ...
 * amount   ::= INT [unit]                             -- units on memory only: m, mb, mib, g, gb, gib
 * </pre>
 *
 * Integers are non-negative and may contain underscores ({@code 86_400}). Comments run from {@code
 * #} or {@code //} to the end of the line. Errors are {@link RdlSyntaxException}s naming the line,
 * column, what was expected and what was found.
 *
 * <p>RDL text comes from applications (the {@code rota-rdl:} reservation name), so parsing is
 * bounded: at most {@link #MAX_TEXT_CHARS} characters, operators nested at most {@link
 * #MAX_NESTING} deep and at most {@link #MAX_NODES} atoms and operators once let-bound names are
 * expanded (a name used twice counts twice, so {@code let} cannot build an exponentially large
 * expression from short text). Each limit is checked before the work it bounds and reported as an
 * {@link RdlSyntaxException} naming the limit.
 */
public final class RdlParser {
  /** The longest RDL text parsed: {@value} characters; longer text is refused unread. */
  public static final int MAX_TEXT_CHARS = 65_536;

  /** The deepest nesting of window/order/all/any (let-bound names expanded): {@value}. */
  public static final int MAX_NESTING = 32;

  /** The most atoms and operators in one expression, let-bound names expanded: {@value}. */
  public static final int MAX_NODES = 4_096;

  private static final Set<String> KEYWORDS =
      Set.of("atom", "window", "order", "all", "any", "let");
  private static final String EXPR =
      "an expression (atom, window, order, all, any or a let-bound name)";

  private final Lexer lexer;
  private Token tok;
  private final Map<String, RdlExpression> bindings = new HashMap<>();
  // size (atoms and operators) and depth of every expression built, let-bound names expanded
  private final Map<RdlExpression, long[]> shapes = new IdentityHashMap<>();
  private int nesting;

  private RdlParser(String text) throws RdlSyntaxException {
    this.lexer = new Lexer(text);
    this.tok = lexer.next();
  }

  /** Parses a whole document (let bindings, then one expression). */
  public static RdlExpression parse(String text) throws RdlSyntaxException {
    if (text.length() > MAX_TEXT_CHARS) {
      throw new RdlSyntaxException(
          1,
          1,
          "RDL text of at most " + MAX_TEXT_CHARS + " characters (RdlParser.MAX_TEXT_CHARS)",
          text.length() + " characters");
    }
    RdlParser p = new RdlParser(text);
    RdlExpression e = p.document();
    return e;
  }

  private RdlExpression document() throws RdlSyntaxException {
    while (tok.kind == Kind.NAME && tok.text.equals("let")) {
      advance();
      Token name = tok;
      if (name.kind != Kind.NAME || KEYWORDS.contains(name.text)) {
        throw error("a name to bind (not a keyword)");
      }
      if (bindings.containsKey(name.text)) {
        throw new RdlSyntaxException(
            name.line,
            name.column,
            "a new name ('" + name.text + "' is already bound)",
            describe(name));
      }
      advance();
      expect(Kind.EQUALS, "'='");
      RdlExpression e = expr();
      bindings.put(name.text, e);
      if (tok.kind == Kind.SEMICOLON) {
        advance();
      }
    }
    RdlExpression e = expr();
    if (tok.kind != Kind.EOF) {
      throw error("end of input (one expression per document; bind others with let)");
    }
    return e;
  }

  private RdlExpression expr() throws RdlSyntaxException {
    Token head = tok;
    if (++nesting > MAX_NESTING) {
      throw new RdlSyntaxException(
          head.line,
          head.column,
          "operators nested at most " + MAX_NESTING + " deep (RdlParser.MAX_NESTING)",
          "a deeper " + describe(head));
    }
    RdlExpression e = bareExpr();
    nesting--;
    long[] shape = shapes.get(e);
    if (shape == null) {
      long nodes = 1;
      long depth = 0;
      for (RdlExpression c : children(e)) {
        long[] cs = shapes.get(c);
        nodes = Math.min(Long.MAX_VALUE / 2, nodes + cs[0]);
        depth = Math.max(depth, cs[1]);
      }
      shape = new long[] {nodes, depth + 1};
      shapes.put(e, shape);
    }
    if (shape[1] > MAX_NESTING) {
      throw new RdlSyntaxException(
          head.line,
          head.column,
          "operators nested at most "
              + MAX_NESTING
              + " deep, let-bound names expanded (RdlParser.MAX_NESTING)",
          describe(head) + " nesting " + shape[1] + " deep");
    }
    if (shape[0] > MAX_NODES) {
      throw new RdlSyntaxException(
          head.line,
          head.column,
          "at most "
              + MAX_NODES
              + " atoms and operators, let-bound names expanded (RdlParser.MAX_NODES)",
          describe(head) + " with " + shape[0]);
    }
    return e;
  }

  private static List<RdlExpression> children(RdlExpression e) {
    if (e instanceof Window w) {
      return List.of(w.body());
    }
    if (e instanceof Order o) {
      return o.children();
    }
    if (e instanceof All a) {
      return a.children();
    }
    if (e instanceof Any a) {
      return a.children();
    }
    return List.of();
  }

  private RdlExpression bareExpr() throws RdlSyntaxException {
    if (tok.kind != Kind.NAME) {
      throw error(EXPR);
    }
    Token head = tok;
    switch (head.text) {
      case "atom":
        advance();
        expect(Kind.LPAREN, "'(' after atom");
        Atom a = atomArgs(head);
        expect(Kind.RPAREN, "')' closing atom(b, g, h, l, w)");
        return a;
      case "window":
        {
          advance();
          expect(Kind.LPAREN, "'(' after window");
          RdlExpression body = expr();
          expect(Kind.COMMA, "',' then the window start");
          long s = integer("the window start (an integer step)");
          expect(Kind.COMMA, "',' then the window end");
          long f = integer("the window end (an integer step)");
          expect(Kind.RPAREN, "')' closing window(e, s, f)");
          return new Window(body, s, f);
        }
      case "order":
      case "all":
      case "any":
        {
          advance();
          expect(Kind.LPAREN, "'(' after " + head.text);
          List<RdlExpression> kids = new ArrayList<>();
          kids.add(expr());
          while (tok.kind == Kind.COMMA) {
            advance();
            kids.add(expr());
          }
          expect(Kind.RPAREN, "',' or ')' in " + head.text + "(...)");
          return head.text.equals("order")
              ? new Order(kids)
              : head.text.equals("all") ? new All(kids) : new Any(kids);
        }
      case "let":
        throw error("an expression (let bindings come before the expression)");
      default:
        RdlExpression bound = bindings.get(head.text);
        if (bound == null) {
          throw new RdlSyntaxException(
              head.line,
              head.column,
              EXPR
                  + (bindings.isEmpty()
                      ? ""
                      : "; bound names: " + String.join(", ", bindings.keySet())),
              "unknown name '" + head.text + "'");
        }
        advance();
        return bound;
    }
  }

  private Atom atomArgs(Token head) throws RdlSyntaxException {
    if (tok.kind == Kind.NAME && lexer.peekIsEquals()) {
      return namedAtomArgs(head);
    }
    Resource b = bundle();
    expect(Kind.COMMA, "',' then g (minimum parallelism)");
    long g = positive("g (minimum parallelism, at least 1)");
    expect(Kind.COMMA, "',' then h (maximum parallelism)");
    long h = positive("h (maximum parallelism, at least 1)");
    expect(Kind.COMMA, "',' then l (minimum lease)");
    long l = positive("l (minimum lease in steps, at least 1)");
    expect(Kind.COMMA, "',' then w (work)");
    long w = integer("w (work in bundle-steps)");
    return new Atom(b, g, h, l, w);
  }

  private Atom namedAtomArgs(Token head) throws RdlSyntaxException {
    Map<String, Object> args = new LinkedHashMap<>();
    while (true) {
      Token key = tok;
      if (key.kind != Kind.NAME || !Set.of("b", "g", "h", "l", "w").contains(key.text)) {
        throw error("one of the atom parameters b, g, h, l, w");
      }
      if (args.containsKey(key.text)) {
        throw new RdlSyntaxException(
            key.line, key.column, "each atom parameter once", "a second '" + key.text + "='");
      }
      advance();
      expect(Kind.EQUALS, "'=' after " + key.text);
      switch (key.text) {
        case "b" -> args.put("b", bundle());
        case "w" -> args.put("w", integer("w (work in bundle-steps)"));
        default -> args.put(key.text, positive(key.text + " (an integer, at least 1)"));
      }
      if (tok.kind != Kind.COMMA) {
        break;
      }
      advance();
    }
    for (String k : List.of("b", "g", "h", "l", "w")) {
      if (!args.containsKey(k)) {
        throw error("',' then " + k + "= (atom needs b, g, h, l and w)");
      }
    }
    return new Atom(
        (Resource) args.get("b"),
        (Long) args.get("g"),
        (Long) args.get("h"),
        (Long) args.get("l"),
        (Long) args.get("w"));
  }

  private Resource bundle() throws RdlSyntaxException {
    expect(Kind.LT, "a bundle such as <memory:1024, vcores:1>");
    Map<Integer, Long> dims = new HashMap<>();
    int nextPositional = 0;
    while (true) {
      int dim;
      Token at = tok;
      if (tok.kind == Kind.NAME) {
        dim = dimension(tok);
        advance();
        expect(Kind.COLON, "':' after the dimension name");
      } else {
        dim = nextPositional;
      }
      if (dims.containsKey(dim)) {
        throw new RdlSyntaxException(
            at.line, at.column, "each bundle dimension once", "dimension " + dim + " again");
      }
      dims.put(dim, amount(dim));
      nextPositional = dim + 1;
      if (tok.kind == Kind.COMMA) {
        advance();
        continue;
      }
      expect(Kind.GT, "',' or '>' in the bundle");
      break;
    }
    int n = Math.max(2, dims.keySet().stream().mapToInt(Integer::intValue).max().orElse(1) + 1);
    long[] v = new long[n];
    dims.forEach((k, x) -> v[k] = x);
    return Resource.of(v);
  }

  private int dimension(Token t) throws RdlSyntaxException {
    switch (t.text) {
      case "memory", "mem", "memory-mb":
        return 0;
      case "vcores", "vcore", "cpu", "cpus":
        return 1;
      default:
        if (t.text.matches("r[0-9]{1,2}")) { // r2 .. r63; more digits would overflow the int
          int d = Integer.parseInt(t.text.substring(1));
          if (d >= 2 && d < 64) {
            return d;
          }
        }
        throw new RdlSyntaxException(
            t.line,
            t.column,
            "a bundle dimension (memory, vcores, or r2, r3, ... for extra dimensions)",
            describe(t));
    }
  }

  private long amount(int dim) throws RdlSyntaxException {
    if (tok.kind != Kind.NUMBER) {
      throw error("an amount (a non-negative integer)");
    }
    Token t = tok;
    long v = t.value;
    if (!t.unit.isEmpty()) {
      long mult =
          switch (t.unit.toLowerCase(java.util.Locale.ROOT)) {
            case "m", "mb", "mib" -> 1;
            case "g", "gb", "gib" -> 1024;
            case "t", "tb", "tib" -> 1024 * 1024;
            default -> -1;
          };
      if (dim != 0 || mult < 0) {
        throw new RdlSyntaxException(
            t.line,
            t.column,
            dim == 0
                ? "a memory unit (m, mb, g, gb, t, tb)"
                : "a plain integer (units only apply to memory)",
            "'" + t.text + "'");
      }
      if (v > Long.MAX_VALUE / mult) {
        throw new RdlSyntaxException(
            t.line, t.column, "an amount that fits in 64 bits (in MB)", "'" + t.text + "'");
      }
      v *= mult;
    }
    advance();
    return v;
  }

  private long integer(String what) throws RdlSyntaxException {
    if (tok.kind != Kind.NUMBER || !tok.unit.isEmpty()) {
      throw error(what);
    }
    long v = tok.value;
    advance();
    return v;
  }

  private long positive(String what) throws RdlSyntaxException {
    Token t = tok;
    long v = integer(what);
    if (v < 1) {
      throw new RdlSyntaxException(t.line, t.column, what, "0");
    }
    return v;
  }

  private void expect(Kind k, String what) throws RdlSyntaxException {
    if (tok.kind != k) {
      throw error(what);
    }
    advance();
  }

  private void advance() throws RdlSyntaxException {
    tok = lexer.next();
  }

  private RdlSyntaxException error(String expected) {
    return new RdlSyntaxException(tok.line, tok.column, expected, describe(tok));
  }

  private static String describe(Token t) {
    return switch (t.kind) {
      case EOF -> "end of input";
      case NAME -> "'" + t.text + "'";
      case NUMBER -> "number " + t.text;
      default -> "'" + t.text + "'";
    };
  }

  private enum Kind {
    NAME,
    NUMBER,
    LPAREN,
    RPAREN,
    LT,
    GT,
    COMMA,
    COLON,
    EQUALS,
    SEMICOLON,
    EOF
  }

  private record Token(Kind kind, String text, long value, String unit, int line, int column) {}

  private static final class Lexer {
    private final String s;
    private int pos;
    private int line = 1;
    private int col = 1;

    Lexer(String s) {
      this.s = s;
    }

    /** True when the next non-blank character after the current token is '='. */
    boolean peekIsEquals() {
      int p = pos;
      while (p < s.length() && Character.isWhitespace(s.charAt(p))) {
        p++;
      }
      return p < s.length() && s.charAt(p) == '=';
    }

    Token next() throws RdlSyntaxException {
      skipBlanks();
      int l = line;
      int c = col;
      if (pos >= s.length()) {
        return new Token(Kind.EOF, "", 0, "", l, c);
      }
      char ch = s.charAt(pos);
      Kind single =
          switch (ch) {
            case '(' -> Kind.LPAREN;
            case ')' -> Kind.RPAREN;
            case '<' -> Kind.LT;
            case '>' -> Kind.GT;
            case ',' -> Kind.COMMA;
            case ':' -> Kind.COLON;
            case '=' -> Kind.EQUALS;
            case ';' -> Kind.SEMICOLON;
            default -> null;
          };
      if (single != null) {
        step();
        return new Token(single, String.valueOf(ch), 0, "", l, c);
      }
      if (Character.isDigit(ch)) {
        int start = pos;
        StringBuilder digits = new StringBuilder();
        while (pos < s.length() && (Character.isDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
          if (s.charAt(pos) != '_') {
            digits.append(s.charAt(pos));
          }
          step();
        }
        int unitStart = pos;
        while (pos < s.length() && Character.isLetter(s.charAt(pos))) {
          step();
        }
        String text = s.substring(start, pos);
        long v;
        try {
          v = Long.parseLong(digits.toString());
        } catch (NumberFormatException e) {
          throw new RdlSyntaxException(l, c, "an integer that fits in 64 bits", "number " + text);
        }
        return new Token(Kind.NUMBER, text, v, s.substring(unitStart, pos), l, c);
      }
      if (Character.isLetter(ch) || ch == '_') {
        int start = pos;
        while (pos < s.length()
            && (Character.isLetterOrDigit(s.charAt(pos))
                || s.charAt(pos) == '_'
                || s.charAt(pos) == '-')) {
          step();
        }
        return new Token(Kind.NAME, s.substring(start, pos), 0, "", l, c);
      }
      String found = ch == '-' ? "'-' (numbers are non-negative)" : "character '" + ch + "'";
      throw new RdlSyntaxException(l, c, "a name, a number or one of ( ) < > , : = ;", found);
    }

    private void skipBlanks() {
      while (pos < s.length()) {
        char ch = s.charAt(pos);
        if (Character.isWhitespace(ch)) {
          step();
        } else if (ch == '#' || (ch == '/' && pos + 1 < s.length() && s.charAt(pos + 1) == '/')) {
          while (pos < s.length() && s.charAt(pos) != '\n') {
            step();
          }
        } else {
          return;
        }
      }
    }

    private void step() {
      if (s.charAt(pos) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
      pos++;
    }
  }
}

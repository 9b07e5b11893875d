package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;

/**
 * Prints RDL in the text syntax {@link RdlParser} reads: {@link #compact} on one line, {@link
 * #pretty} indented two spaces per level. {@code parse(print(e)).equals(e)} holds for every
 * expression.
 */
public final class RdlPrinter {
  private RdlPrinter() {}

  public static String compact(RdlExpression e) {
    StringBuilder sb = new StringBuilder();
    print(e, sb, -1);
    return sb.toString();
  }

  public static String pretty(RdlExpression e) {
    StringBuilder sb = new StringBuilder();
    print(e, sb, 0);
    return sb.toString();
  }

  /** A bundle as {@code <memory:1024, vcores:1>} (extra dimensions as {@code r2:5}). */
  public static String bundle(Resource b) {
    StringBuilder sb =
        new StringBuilder("<memory:").append(b.memoryMb()).append(", vcores:").append(b.vcores());
    for (int i = 2; i < b.dimensions(); i++) {
      if (b.get(i) != 0) {
        sb.append(", r").append(i).append(':').append(b.get(i));
      }
    }
    return sb.append('>').toString();
  }

  private static void print(RdlExpression e, StringBuilder sb, int indent) {
    if (e instanceof Atom a) {
      sb.append("atom(")
          .append(bundle(a.bundle()))
          .append(", ")
          .append(a.g())
          .append(", ")
          .append(a.h())
          .append(", ")
          .append(a.l())
          .append(", ")
          .append(a.w())
          .append(')');
      return;
    }
    java.util.List<RdlExpression> kids;
    String tail = "";
    if (e instanceof Window w) {
      kids = java.util.List.of(w.body());
      tail = ", " + w.start() + ", " + w.end();
    } else if (e instanceof Order o) {
      kids = o.children();
    } else if (e instanceof All a) {
      kids = a.children();
    } else {
      kids = ((Any) e).children();
    }
    sb.append(e.keyword()).append('(');
    for (int i = 0; i < kids.size(); i++) {
      if (indent >= 0) {
        sb.append('\n').append("  ".repeat(indent + 1));
      }
      print(kids.get(i), sb, indent < 0 ? -1 : indent + 1);
      if (i + 1 < kids.size()) {
        sb.append(indent >= 0 ? "," : ", ");
      }
    }
    if (indent >= 0) {
      sb.append(tail.isEmpty() ? "\n" + "  ".repeat(indent) : tail);
    } else {
      sb.append(tail);
    }
    sb.append(')');
  }
}

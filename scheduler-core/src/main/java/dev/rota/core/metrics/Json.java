package dev.rota.core.metrics;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A minimal, deterministic JSON writer for Rota's outputs (summary.json, reproduce results). Maps
 * are written in their iteration order, so use a {@link java.util.LinkedHashMap} for a stable
 * layout; doubles are written with {@link Double#toString} except that non-finite values become
 * {@code null}. Supported values: null, String, Boolean, Number, Map, List, arrays of double.
 */
public final class Json {
  private Json() {}

  /** Pretty-printed with two-space indentation and a trailing newline. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Boolean b) {
      sb.append(b);
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      sb.append(Double.isFinite(d) ? number(d) : "null");
    } else if (v instanceof Number n) {
      sb.append(n.longValue());
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        pad(sb, indent + 1);
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue(), indent + 1);
        sb.append(it.hasNext() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append('}');
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append("[\n");
      for (int i = 0; i < l.size(); i++) {
        pad(sb, indent + 1);
        write(sb, l.get(i), indent + 1);
        sb.append(i + 1 < l.size() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append(']');
    } else if (v instanceof double[] a) {
      sb.append('[');
      for (int i = 0; i < a.length; i++) {
        sb.append(i == 0 ? "" : ", ").append(Double.isFinite(a[i]) ? number(a[i]) : "null");
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
    }
  }

  /** Integral doubles print without ".0"; others in the shortest round-trip form. */
  static String number(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static void pad(StringBuilder sb, int indent) {
    sb.append("  ".repeat(indent));
  }

  /** Convenience for building ordered maps inline: {@code Json.obj("a", 1, "b", 2)}. */
  public static Map<String, Object> obj(Object... kv) {
    if (kv.length % 2 != 0) {
      throw new IllegalArgumentException("obj needs key/value pairs");
    }
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  public static List<Object> list(Object... items) {
    return java.util.Arrays.asList(items);
  }
}

package dev.rota.core.reservation.rdl;

/**
 * An expression of Rayon's Reservation Definition Language (paper §3.1):
 *
 * <pre>
 * expr ::= atom(b, g, h, l, w) | window(expr, s, f) | order(expr, ...) | all(expr, ...) | any(expr, ...)
 * </pre>
 *
 * Values are immutable records that check only their own domain on construction (positive counts,
 * non-empty operand lists). Cross-parameter rules (g &lt;= h, h a multiple of g, l*g &lt;= w,
 * non-empty windows, ...) are the {@link RdlCompiler}'s job, so that it can name the offending
 * sub-expression. Build values with {@link Rdl}, parse them with {@link RdlParser}, print them with
 * {@link RdlPrinter}.
 */
public sealed interface RdlExpression permits Atom, Window, Order, All, Any {
  /** The keyword: atom, window, order, all or any. */
  String keyword();

  /** {@code window(this, start, end)}. */
  default Window within(long start, long end) {
    return new Window(this, start, end);
  }
}

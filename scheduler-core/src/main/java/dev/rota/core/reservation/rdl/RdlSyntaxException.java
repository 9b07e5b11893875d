package dev.rota.core.reservation.rdl;

/**
 * A syntax error in RDL text: where (1-based line and column), what the parser expected there and
 * what it found. The message reads {@code line 3, column 12: expected ',' or ')', found 'atom'}.
 */
public final class RdlSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String expected;
  private final String found;

  public RdlSyntaxException(int line, int column, String expected, String found) {
    super("line " + line + ", column " + column + ": expected " + expected + ", found " + found);
    this.line = line;
    this.column = column;
    this.expected = expected;
    this.found = found;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** What would have been valid at this point, e.g. {@code ',' or ')'}. */
  public String expected() {
    return expected;
  }

  /** What was there instead, e.g. {@code 'atom'} or {@code end of input}. */
  public String found() {
    return found;
  }
}

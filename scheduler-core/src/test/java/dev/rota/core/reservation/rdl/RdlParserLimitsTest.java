package dev.rota.core.reservation.rdl;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * RDL text is application input (the {@code rota-rdl:} reservation name): the parser's bounds
 * ({@link RdlParser#MAX_TEXT_CHARS}, {@link RdlParser#MAX_NESTING}, {@link RdlParser#MAX_NODES})
 * hold, each refusal names its limit, and expressions within the bounds still parse.
 */
class RdlParserLimitsTest {
  private static final String ATOM = "atom(<1024,1>,1,1,1,1)";

  private static String refusal(String text) {
    return assertThrows(RdlSyntaxException.class, () -> RdlParser.parse(text)).getMessage();
  }

  @Test
  void textLongerThanTheLimitIsRefusedUnread() {
    String text = "window(" + (ATOM + ",").repeat(RdlParser.MAX_TEXT_CHARS / 23) + ATOM + ", 0, 9)";
    String m = refusal(text);
    assertTrue(m.contains("at most 65536 characters (RdlParser.MAX_TEXT_CHARS)"), m);
    assertTrue(m.contains("found " + text.length() + " characters"), m);
  }

  @Test
  void nestingDeeperThanTheLimitIsRefusedBeforeTheStackGrows() {
    assertDoesNotThrow(
        () ->
            RdlParser.parse(
                "order(".repeat(RdlParser.MAX_NESTING - 1)
                    + ATOM
                    + ")".repeat(RdlParser.MAX_NESTING - 1)));
    String m =
        refusal("order(".repeat(RdlParser.MAX_NESTING) + ATOM + ")".repeat(RdlParser.MAX_NESTING));
    assertTrue(m.contains("(RdlParser.MAX_NESTING)"), m);
    m = refusal("all(".repeat(10_000));
    assertTrue(m.contains("(RdlParser.MAX_NESTING)"), m);
  }

  @Test
  void letBoundNamesCountOncePerUseSoDoublingCannotBuildAHugeExpression() {
    StringBuilder s = new StringBuilder("let a0 = " + ATOM + ";");
    for (int i = 1; i <= 40; i++) {
      s.append(" let a")
          .append(i)
          .append(" = all(a")
          .append(i - 1)
          .append(", a")
          .append(i - 1)
          .append(");");
    }
    String m = refusal(s.append(" window(a40, 0, 9)").toString());
    assertTrue(m.contains("at most 4096 atoms and operators, let-bound names expanded"), m);
    // 2^11 - 1 = 2047 nodes: within the bound
    StringBuilder ok = new StringBuilder("let a0 = " + ATOM + ";");
    for (int i = 1; i <= 10; i++) {
      ok.append(" let a")
          .append(i)
          .append(" = all(a")
          .append(i - 1)
          .append(", a")
          .append(i - 1)
          .append(");");
    }
    assertDoesNotThrow(() -> RdlParser.parse(ok.append(" a10").toString()));
  }

  @Test
  void amountsAndDimensionsThatOverflowAreSyntaxErrors() {
    assertTrue(refusal("atom(<9007199254740993tb, 1>,1,1,1,1)").contains("fits in 64 bits"));
    assertTrue(refusal("atom(<r23037000500: 1>,1,1,1,1)").contains("bundle dimension"));
  }
}

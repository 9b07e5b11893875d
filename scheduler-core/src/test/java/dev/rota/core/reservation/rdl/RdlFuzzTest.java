package dev.rota.core.reservation.rdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rota.core.model.Resource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz targets for RDL text (the {@code rota-rdl:} reservation name an application submits) and the
 * compiler. The only exception the parser may throw is {@link RdlSyntaxException} with a message;
 * the compiler throws nothing (it answers {@link CompileResult.Invalid}). Anything else is a
 * finding. Regression inputs: {@code src/test/resources/dev/rota/core/reservation/rdl/
 * RdlFuzzTestInputs/<method>/}; {@code bin/rota-fuzz} fuzzes (docs/reliability.md).
 */
class RdlFuzzTest {

  /** Text → parse → (printed form parses back to the same expression) → compile, two ways. */
  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "atom(",
    "window(",
    "order(",
    "all(",
    "any(",
    "let ",
    " = ",
    "<memory:1024, vcores:1>",
    "<1g, 1, r2:3>",
    "b=",
    "g=",
    "h=",
    "l=",
    "w=",
    "tb",
    "9223372036854775807",
    "4611686018427387904",
    "3037000500",
    "# rota-placed nb=0"
  })
  void parseAndCompile(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    RdlExpression e;
    try {
      e = RdlParser.parse(text);
    } catch (RdlSyntaxException x) {
      assertNotNull(x.getMessage());
      assertFalse(x.expected().isBlank(), "a syntax error says what was expected");
      return;
    }
    String printed = RdlPrinter.compact(e);
    if (printed.length() <= RdlParser.MAX_TEXT_CHARS) {
      try {
        assertEquals(e, RdlParser.parse(printed), "the printed form parses back: " + printed);
      } catch (RdlSyntaxException x) {
        throw new AssertionError("the printed form of a parsed expression does not parse", x);
      }
    }
    compileBothWays(e);
  }

  /**
   * Expression trees the parser would rarely produce: any 64-bit numbers, deep and wide operators,
   * windows anywhere. The compiler must answer (valid or invalid), never throw.
   */
  @FuzzTest(maxDuration = "2m")
  void compileTree(FuzzedDataProvider data) {
    RdlExpression e;
    try {
      e = tree(data, 0);
    } catch (IllegalArgumentException x) {
      return; // the fuzzer asked for a node the constructors refuse (e.g. g = 0): not the
      // compiler's
    }
    compileBothWays(e);
    long notBefore = nonNegative(data);
    RdlCompiler.compile(e, CompilerOptions.DEFAULT.withNotBefore(notBefore));
  }

  private static void compileBothWays(RdlExpression e) {
    CompileResult c = RdlCompiler.compile(e);
    assertNotNull(c);
    CompileResult milp = RdlCompiler.compile(e, CompilerOptions.DEFAULT.withRigidGangs(true));
    if (c instanceof CompileResult.Compiled ok) {
      assertFalse(ok.rdl().atoms().isEmpty() && ok.rdl().toString().isEmpty());
    }
    assertNotNull(milp);
  }

  // consumeLong(0, Long.MAX_VALUE) can answer negative numbers (a full-range quirk): mask instead
  private static long nonNegative(FuzzedDataProvider d) {
    return d.consumeLong() & Long.MAX_VALUE;
  }

  private static RdlExpression tree(FuzzedDataProvider d, int depth) {
    int kind = depth >= 6 ? 0 : d.consumeInt(0, 4);
    switch (kind) {
      case 0:
        return new Atom(
            Resource.of(nonNegative(d), nonNegative(d)),
            Math.max(1, nonNegative(d)),
            Math.max(1, nonNegative(d)),
            Math.max(1, nonNegative(d)),
            nonNegative(d));
      case 1:
        return new Window(tree(d, depth + 1), nonNegative(d), nonNegative(d));
      default:
        int n = d.consumeInt(1, 4);
        List<RdlExpression> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          kids.add(tree(d, depth + 1));
        }
        return kind == 2 ? new Order(kids) : kind == 3 ? new All(kids) : new Any(kids);
    }
  }
}

package dev.rota.core.reservation.rdl;

import static dev.rota.core.reservation.Fixtures.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RdlParserTest {
  record Good(String name, String text, RdlExpression expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Good> goodInputs() {
    Atom a = Rdl.atom(B, 1, 10, 240, 2400);
    return Stream.of(
        new Good(
            "a positional atom with a named bundle",
            "atom(<memory:1024, vcores:1>, 1, 10, 240, 2400)",
            a),
        new Good("a positional bundle and a memory unit", "atom(<1g, 1>, 1, 10, 240, 2400)", a),
        new Good(
            "named atom parameters in any order",
            "atom(w=2400, l=240, b=<mem:1024mb, cpu:1>, h=10, g=1)",
            a),
        new Good(
            "the paper's Fig. 9 expression",
            "window(\n  order(\n    atom(<1024,1>,1,10,240,2400),\n    atom(<1024,1>,1,20,120,2400),\n"
                + "    atom(<1024,1>,1,15,120,1800)\n  ), 0, 800)",
            Rdl.window(
                Rdl.order(a, Rdl.atom(B, 1, 20, 120, 2400), Rdl.atom(B, 1, 15, 120, 1800)),
                0,
                800)),
        new Good(
            "let bindings, comments and underscores",
            "# the paper's production workflow (Fig. 5b)\n"
                + "let eA = atom(<1024,1>, 1, 4, 2, 40);\n"
                + "let eB = atom(<1024,1>, 1, 6, 2, 24)   // no semicolon needed\n"
                + "let eC = atom(<1024,1>, 5, 5, 10, 50);\n"
                + "window(order(all(eA, eB), eC), 0, 1_00)",
            Rdl.window(
                Rdl.order(
                    Rdl.all(Rdl.atom(B, 1, 4, 2, 40), Rdl.atom(B, 1, 6, 2, 24)),
                    Rdl.atom(B, 5, 5, 10, 50)),
                0,
                100)),
        new Good(
            "an extra resource dimension",
            "any(atom(<2048, 2, r2:5>, 2, 4, 3, 12))",
            Rdl.any(Rdl.atom(Resource.of(2048, 2, 5), 2, 4, 3, 12))));
  }

  @ParameterizedTest
  @MethodSource("goodInputs")
  void parses(Good c) throws RdlSyntaxException {
    assertEquals(c.expected(), RdlParser.parse(c.text()));
  }

  record Bad(String name, String text, int line, int column, String expected, String found) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> badInputs() {
    return Stream.of(
        new Bad(
            "a missing comma between operands",
            "order(atom(<1024,1>,1,1,1,1)\n      atom(<1024,1>,1,1,1,1))",
            2,
            7,
            "',' or ')' in order(...)",
            "'atom'"),
        new Bad(
            "an unknown keyword",
            "sequence(atom(<1024,1>,1,1,1,1))",
            1,
            1,
            "an expression",
            "unknown name 'sequence'"),
        new Bad(
            "a missing window end",
            "window(atom(<1024,1>,1,1,1,1), 0)",
            1,
            33,
            "',' then the window end",
            "')'"),
        new Bad(
            "g of zero",
            "atom(<1024,1>, 0, 1, 1, 1)",
            1,
            16,
            "g (minimum parallelism, at least 1)",
            "0"),
        new Bad(
            "a negative number", "atom(<1024,1>, 1, 1, 1, -5)", 1, 25, "a name, a number", "'-'"),
        new Bad(
            "a unit on vcores", "atom(<1024, 2g>, 1, 1, 1, 1)", 1, 13, "a plain integer", "'2g'"),
        new Bad(
            "an unknown bundle dimension",
            "atom(<gpu:1>, 1, 1, 1, 1)",
            1,
            7,
            "a bundle dimension",
            "'gpu'"),
        new Bad("a named atom missing w", "atom(b=<1024,1>, g=1, h=1, l=1)", 1, 31, "w=", "')'"),
        new Bad("an empty operator", "all()", 1, 5, "an expression", "')'"),
        new Bad(
            "trailing input",
            "atom(<1024,1>,1,1,1,1) atom(<1024,1>,1,1,1,1)",
            1,
            24,
            "end of input",
            "'atom'"),
        new Bad(
            "an unclosed window at end of input",
            "window(atom(<1024,1>,1,1,1,1), 0, 5",
            1,
            36,
            "')' closing window",
            "end of input"),
        new Bad(
            "a rebound name",
            "let x = atom(<1024,1>,1,1,1,1)\nlet x = all(x)\nx",
            2,
            5,
            "a new name",
            "'x'"));
  }

  @ParameterizedTest
  @MethodSource("badInputs")
  void reportsWhereAndWhatWasExpected(Bad c) {
    RdlSyntaxException e = assertThrows(RdlSyntaxException.class, () -> RdlParser.parse(c.text()));
    assertEquals(c.line(), e.line(), e.getMessage());
    assertEquals(c.column(), e.column(), e.getMessage());
    assertTrue(e.expected().contains(c.expected()), "expected part: " + e.getMessage());
    assertTrue(e.found().contains(c.found()), "found part: " + e.getMessage());
    assertTrue(
        e.getMessage().startsWith("line " + c.line() + ", column " + c.column() + ": expected "),
        e.getMessage());
  }

  @Test
  void printingThenParsingRandomExpressionsGivesThemBack() throws RdlSyntaxException {
    Random rnd = new Random(11);
    for (int i = 0; i < 500; i++) {
      RdlExpression e = random(rnd, 4);
      assertEquals(e, RdlParser.parse(RdlPrinter.compact(e)), RdlPrinter.compact(e));
      assertEquals(e, RdlParser.parse(RdlPrinter.pretty(e)), RdlPrinter.pretty(e));
    }
  }

  static RdlExpression random(Random rnd, int depth) {
    int k = depth == 0 ? 0 : rnd.nextInt(5);
    switch (k) {
      case 0:
        {
          Resource b =
              rnd.nextBoolean()
                  ? Resource.of(1 + rnd.nextInt(4096), rnd.nextInt(8))
                  : Resource.of(rnd.nextInt(100), rnd.nextInt(4), 1 + rnd.nextInt(3));
          return Rdl.atom(
              b, 1 + rnd.nextInt(4), 1 + rnd.nextInt(9), 1 + rnd.nextInt(30), rnd.nextInt(500));
        }
      case 1:
        return Rdl.window(random(rnd, depth - 1), rnd.nextInt(100), rnd.nextInt(1000));
      default:
        {
          List<RdlExpression> kids = new ArrayList<>();
          int n = 1 + rnd.nextInt(3);
          for (int i = 0; i < n; i++) {
            kids.add(random(rnd, depth - 1));
          }
          return k == 2 ? new Order(kids) : k == 3 ? new All(kids) : new Any(kids);
        }
    }
  }

  @Test
  void theFluentBuilderBuildsWhatTheFactoriesBuild() {
    assertEquals(Rdl.atom(B, 1, 10, 240, 2400), Rdl.atom(B).malleable(10).lease(240).work(2400));
    assertEquals(Rdl.atom(B, 5, 5, 10, 50), Rdl.rigidGang(B, 5, 10));
    assertEquals(Rdl.atom(B, 5, 5, 10, 50), Rdl.atom(B).gang(5).lease(10).work(50));
    assertEquals(Rdl.window(Rdl.atom(B, 1, 1, 1, 1), 0, 9), Rdl.atom(B, 1, 1, 1, 1).within(0, 9));
    assertThrows(IllegalStateException.class, () -> Rdl.atom(B).lease(3).work(9));
    var e = assertThrows(IllegalArgumentException.class, () -> Rdl.atom(B, 1, 1, 0, 1));
    assertTrue(e.getMessage().contains("l (minimum lease)"), e.getMessage());
  }
}

package dev.rota.core.reservation.rdl;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.rdl.Rdl.all;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.rdl.FlatDefinition.Interpreter;
import dev.rota.core.reservation.rdl.FlatDefinition.Stage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FlatMappingTest {
  @Test
  void aHadoopStyleOrderOfStagesMapsToAWindowedOrderAndBack() {
    FlatDefinition d =
        new FlatDefinition(
            "etl",
            100,
            900,
            Interpreter.R_ORDER,
            List.of(
                new Stage(Resource.of(2048, 1), 10, 1, 60),
                new Stage(Resource.of(4096, 2), 8, 4, 30)));
    RdlExpression e =
        (RdlExpression)
            assertInstanceOf(FlatMapping.Expressible.class, FlatMapping.toRdl(d)).value();
    assertEquals(
        window(
            order(
                atom(Resource.of(2048, 1), 1, 10, 60, 600),
                atom(Resource.of(4096, 2), 4, 8, 30, 240)),
            100,
            900),
        e);
    FlatDefinition back =
        (FlatDefinition)
            assertInstanceOf(FlatMapping.Expressible.class, FlatMapping.toFlat(e, "etl")).value();
    assertEquals(d, back);
  }

  @Test
  void aSingleStageBecomesABareAtomAndComesBackAsAll() {
    FlatDefinition d =
        new FlatDefinition("one", 0, 50, Interpreter.R_ANY, List.of(new Stage(B, 4, 2, 5)));
    RdlExpression e = (RdlExpression) ((FlatMapping.Expressible<?>) FlatMapping.toRdl(d)).value();
    assertEquals(window(atom(B, 2, 4, 5, 20), 0, 50), e);
    FlatDefinition back =
        (FlatDefinition) ((FlatMapping.Expressible<?>) FlatMapping.toFlat(e, "one")).value();
    assertEquals(
        Interpreter.R_ALL, back.interpreter(), "one stage: the interpreter does not matter");
    assertEquals(d.stages(), back.stages());
  }

  @Test
  void orderWithoutGapsHasNoRdlEquivalent() {
    FlatDefinition d =
        new FlatDefinition("x", 0, 50, Interpreter.R_ORDER_NO_GAP, List.of(new Stage(B, 1, 1, 5)));
    var r = assertInstanceOf(FlatMapping.NotExpressible.class, FlatMapping.toRdl(d));
    assertTrue(r.reasons().toString().contains("R_ORDER_NO_GAP"), r.reasons().toString());
  }

  record Inexpressible(String name, RdlExpression rdl, String path, String says) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Inexpressible> inexpressible() {
    return Stream.of(
        new Inexpressible(
            "nesting",
            window(
                order(all(atom(B, 1, 2, 5, 10), atom(B, 1, 3, 5, 15)), atom(B, 1, 1, 5, 5)), 0, 99),
            "window.order[0].all",
            "a nested all inside order"),
        new Inexpressible(
            "work that is not containers times duration",
            window(atom(B, 1, 4, 5, 60), 0, 99),
            "window.atom",
            "w = 60 but h*l = 4*5 = 20"),
        new Inexpressible(
            "stages with different windows",
            all(window(atom(B, 1, 2, 5, 10), 0, 50), window(atom(B, 1, 2, 5, 10), 10, 50)),
            "all[1].window.atom",
            "differs from [0, 50)"),
        new Inexpressible(
            "invalid RDL", window(atom(B, 3, 2, 5, 10), 0, 50), "window.atom", "g = 3 > h = 2"));
  }

  @ParameterizedTest
  @MethodSource("inexpressible")
  void saysPreciselyWhyTheOneLevelFormCannotExpressIt(Inexpressible c) {
    var r = assertInstanceOf(FlatMapping.NotExpressible.class, FlatMapping.toFlat(c.rdl(), "x"));
    RdlIssue first = (RdlIssue) r.reasons().get(0);
    assertEquals(c.path(), first.path());
    assertTrue(first.message().contains(c.says()), first.message());
  }

  @Test
  void flatRecordsAreValidatedLikeHadoopValidatesThem() {
    assertThrows(IllegalArgumentException.class, () -> new Stage(B, 10, 4, 5));
    assertThrows(IllegalArgumentException.class, () -> new Stage(Resource.ZERO, 1, 1, 5));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FlatDefinition("x", 50, 50, Interpreter.R_ALL, List.of(new Stage(B, 1, 1, 5))));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FlatDefinition("x", 0, 50, Interpreter.R_ALL, List.of()));
  }
}

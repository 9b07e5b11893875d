package dev.rota.core.reservation.rdl;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.compiled;
import static dev.rota.core.reservation.rdl.Rdl.all;
import static dev.rota.core.reservation.rdl.Rdl.any;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RdlCompilerTest {
  private static final Atom ONE = atom(B, 1, 1, 1, 1);
  private static final Atom TEN = atom(B, 1, 1, 10, 10);

  record Bad(
      String name,
      RdlExpression rdl,
      CompilerOptions options,
      String path,
      RdlIssue.Code code,
      String says) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Bad bad(String name, RdlExpression rdl, String path, RdlIssue.Code code, String says) {
    return new Bad(name, rdl, CompilerOptions.DEFAULT, path, code, says);
  }

  static Stream<Bad> badInputs() {
    Atom s1 = atom(B, 1, 10, 240, 2400);
    Atom s2 = atom(B, 1, 20, 120, 2400);
    Atom s3 = atom(B, 1, 15, 120, 1800);
    return Stream.of(
        bad(
            "g above h",
            window(atom(B, 5, 4, 1, 20), 0, 10),
            "window.atom",
            RdlIssue.Code.MIN_ABOVE_MAX,
            "g = 5 > h = 4"),
        bad(
            "h not a multiple of g",
            window(atom(B, 4, 10, 1, 40), 0, 100),
            "window.atom",
            RdlIssue.Code.MAX_NOT_MULTIPLE_OF_MIN,
            "h = 10 is not a multiple of g = 4"),
        bad(
            "w not a multiple of g",
            window(atom(B, 2, 4, 1, 7), 0, 100),
            "window.atom",
            RdlIssue.Code.WORK_NOT_MULTIPLE_OF_MIN,
            "w = 7 is not a multiple of g = 2"),
        bad(
            "l times g above w",
            window(atom(B, 4, 8, 10, 36), 0, 100),
            "window.atom",
            RdlIssue.Code.WORK_BELOW_ONE_LEASE,
            "l*g = 10*4 = 40 > w = 36"),
        bad(
            "a zero bundle",
            window(atom(Resource.of(0, 0), 1, 1, 1, 1), 0, 10),
            "window.atom",
            RdlIssue.Code.ZERO_BUNDLE,
            "the bundle b is zero"),
        bad(
            "an empty window",
            window(ONE, 10, 10),
            "window",
            RdlIssue.Code.EMPTY_WINDOW,
            "window [10, 10) is empty"),
        bad(
            "a nested window outside its enclosing one",
            window(order(window(ONE, 20, 30), ONE), 0, 10),
            "window.order[0].window",
            RdlIssue.Code.DISJOINT_WINDOW,
            "window [20, 30) does not overlap the enclosing window [0, 10)"),
        new Bad(
            "a window before the submission time",
            window(ONE, 0, 40),
            CompilerOptions.DEFAULT.withNotBefore(50),
            "window",
            RdlIssue.Code.DISJOINT_WINDOW,
            "ends at or before the submission time 50"),
        bad(
            "an atom without any window",
            order(ONE, ONE),
            "order[0].atom",
            RdlIssue.Code.UNBOUNDED,
            "no deadline"),
        bad(
            "an atom longer than its window",
            window(s1, 0, 200),
            "window.atom",
            RdlIssue.Code.ATOM_LONGER_THAN_WINDOW,
            "needs at least 240 steps (max(l = 240, ceil(w/h) = 240)) but its window [0, 200) has 200"),
        bad(
            "an order longer than its window (Fig. 9 in 400 steps)",
            window(order(s1, s2, s3), 0, 400),
            "window.order",
            RdlIssue.Code.ORDER_LONGER_THAN_WINDOW,
            "its 3 operands need at least 480 steps in sequence (240 + 120 + 120) but the window [0, 400) has 400"),
        bad(
            "a bad atom deep inside names its path",
            window(order(ONE, all(atom(B, 3, 2, 1, 6), ONE)), 0, 100),
            "window.order[1].all[0].atom",
            RdlIssue.Code.MIN_ABOVE_MAX,
            "g = 3 > h = 2"),
        bad(
            "an order whose second operand's own window closes too early",
            window(order(window(TEN, 0, 50), window(TEN, 0, 15)), 0, 100),
            "window.order[1].window.atom",
            RdlIssue.Code.DEADLINE_UNREACHABLE,
            "cannot finish by its deadline 15: it cannot start before 10 (its predecessors in an order end no earlier)"),
        bad(
            "an any whose alternatives all miss their deadlines",
            window(order(TEN, any(window(TEN, 0, 15), window(TEN, 0, 12))), 0, 100),
            "window.order[1].any",
            RdlIssue.Code.DEADLINE_UNREACHABLE,
            "no alternative can meet its deadline"),
        new Bad(
            "a non-rigid gang rewrite that would explode",
            window(atom(B, 2, 4, 1, 2000), 0, 1000),
            CompilerOptions.DEFAULT.withRigidGangs(true),
            "window.atom",
            RdlIssue.Code.REWRITE_TOO_LARGE,
            "would create 1000 rigid atoms"));
  }

  @ParameterizedTest
  @MethodSource("badInputs")
  void rejectsNamingTheSubExpressionAndTheReason(Bad c) {
    CompileResult r = RdlCompiler.compile(c.rdl(), c.options());
    CompileResult.Invalid inv = assertInstanceOf(CompileResult.Invalid.class, r);
    RdlIssue first = inv.errors().get(0);
    assertEquals(c.path(), first.path(), inv.errors().toString());
    assertEquals(c.code(), first.code(), inv.errors().toString());
    assertTrue(first.message().contains(c.says()), first.message());
  }

  @Test
  void allProblemsAreReportedNotOnlyTheFirst() {
    CompileResult r =
        RdlCompiler.compile(window(all(atom(B, 5, 4, 1, 20), atom(B, 2, 4, 1, 7)), 10, 10));
    List<RdlIssue> errors = ((CompileResult.Invalid) r).errors();
    assertEquals(
        List.of(
            RdlIssue.Code.EMPTY_WINDOW,
            RdlIssue.Code.MIN_ABOVE_MAX,
            RdlIssue.Code.WORK_NOT_MULTIPLE_OF_MIN),
        errors.stream().map(RdlIssue::code).toList());
  }

  @Test
  void anAlternativeThatCanNeverBeSatisfiedIsOnlyAWarningWhileAnotherCanBe() {
    // any(too long for the window, fine, window before the submission time)
    RdlExpression e = window(any(atom(B, 1, 2, 5, 400), TEN, window(TEN, 0, 20)), 0, 100);
    CompileResult r = RdlCompiler.compile(e, CompilerOptions.DEFAULT.withNotBefore(30));
    CompileResult.Compiled ok = assertInstanceOf(CompileResult.Compiled.class, r);
    assertEquals(
        List.of("window.any[0].atom", "window.any[1].atom"),
        ok.rdl().atoms().stream().map(CompiledAtom::path).toList(),
        "the alternative before 'now' is dropped");
    assertEquals(
        List.of(RdlIssue.Code.INFEASIBLE_ALTERNATIVE, RdlIssue.Code.INFEASIBLE_ALTERNATIVE),
        ok.warnings().stream().map(RdlIssue::code).toList());
    assertTrue(
        ok.warnings().get(0).message().contains("needs at least 200 steps"),
        ok.warnings().get(0).message());
    assertEquals(
        List.of("window.any[2].window"),
        ok.warnings().stream().map(RdlIssue::path).filter(x -> x.endsWith("window")).toList());
  }

  @Test
  void nestedOrdersFlattenIntoOne() {
    // paper: order(order(a1,a2), order(a3,a4)) -> order(a1,a2,a3,a4)
    Atom a1 = atom(B, 1, 1, 1, 1);
    Atom a2 = atom(B, 1, 2, 1, 2);
    Atom a3 = atom(B, 1, 3, 1, 3);
    Atom a4 = atom(B, 1, 4, 1, 4);
    CompiledRdl c = compiled(window(order(order(a1, a2), order(a3, a4)), 0, 100));
    CompiledOp root = assertInstanceOf(CompiledOp.class, c.root().orElseThrow());
    assertEquals(CompiledOp.Op.ORDER, root.op());
    assertEquals(
        List.of(
            "window.order[0].order[0].atom",
            "window.order[0].order[1].atom",
            "window.order[1].order[0].atom",
            "window.order[1].order[1].atom"),
        c.atoms().stream().map(CompiledAtom::path).toList());
    assertEquals(List.of(1L, 2L, 3L, 4L), c.atoms().stream().map(CompiledAtom::h).toList());
  }

  @Test
  void identicalUnitAtomsUnderAllUnifyIntoOne() {
    // paper: all(atom(b,1,1,1,1), atom(b,1,1,1,1)) -> atom(b,1,2,1,2)
    CompiledRdl c = compiled(window(all(ONE, ONE), 0, 10));
    CompiledAtom a = assertInstanceOf(CompiledAtom.class, c.root().orElseThrow());
    assertEquals(List.of(1L, 2L, 1L, 2L), List.of(a.g(), a.h(), a.l(), a.w()));
    assertEquals(List.of("window.all[0].atom", "window.all[1].atom"), a.sources());
    assertEquals(
        "window(atom(<memory:1024, vcores:1>, 1, 2, 1, 2), 0, 10)",
        c.toRdl().orElseThrow().toString());
  }

  @Test
  void atomsThatAreNotProvablyInterchangeableAreNotUnified() {
    record Case(String name, RdlExpression rdl) {}
    for (Case k :
        List.of(
            new Case("different h", window(all(atom(B, 1, 1, 1, 4), atom(B, 1, 2, 1, 4)), 0, 10)),
            new Case(
                "lease above one step",
                window(all(atom(B, 1, 2, 2, 4), atom(B, 1, 2, 2, 4)), 0, 10)),
            new Case("gangs", window(all(atom(B, 2, 2, 1, 4), atom(B, 2, 2, 1, 4)), 0, 10)),
            new Case("different windows", all(window(ONE, 0, 10), window(ONE, 0, 9))))) {
      CompiledRdl c = compiled(k.rdl());
      assertEquals(2, c.atoms().size(), k.name());
    }
    assertEquals(1, compiled(window(all(ONE, ONE), 0, 10)).atoms().size());
    CompiledRdl off =
        ((CompileResult.Compiled)
                RdlCompiler.compile(
                    window(all(ONE, ONE), 0, 10), CompilerOptions.DEFAULT.withUnification(false)))
            .rdl();
    assertEquals(2, off.atoms().size(), "unification can be switched off");
  }

  @Test
  void windowsArePushedDownToAtomsByIntersection() {
    CompiledRdl c =
        compiled(window(order(window(ONE, 5, 50), any(ONE, window(TEN, 20, 60))), 0, 40));
    assertEquals(
        List.of(List.of(5L, 40L), List.of(0L, 40L), List.of(20L, 40L)),
        c.atoms().stream().map(a -> List.of(a.start(), a.end())).toList());
    assertEquals(
        "order(window(atom(<memory:1024, vcores:1>, 1, 1, 1, 1), 5, 40), "
            + "any(window(atom(<memory:1024, vcores:1>, 1, 1, 1, 1), 0, 40), "
            + "window(atom(<memory:1024, vcores:1>, 1, 1, 10, 10), 20, 40)))",
        c.toRdl().orElseThrow().toString());
  }

  @Test
  void zeroWorkAtomsAndTriviallySatisfiedAnysAreDroppedWithAWarning() {
    Atom none = atom(B, 1, 4, 1, 0);
    CompileResult r = RdlCompiler.compile(window(all(none, TEN, any(none, ONE)), 0, 100));
    CompileResult.Compiled ok = assertInstanceOf(CompileResult.Compiled.class, r);
    assertEquals(
        List.of("window.all[1].atom"), ok.rdl().atoms().stream().map(CompiledAtom::path).toList());
    assertEquals(
        List.of(
            RdlIssue.Code.ZERO_WORK_DROPPED,
            RdlIssue.Code.ZERO_WORK_DROPPED,
            RdlIssue.Code.TRIVIAL_ANY_DROPPED),
        ok.warnings().stream().map(RdlIssue::code).toList());
    CompiledRdl bestEffort = compiled(atom(B, 1, 8, 1, 0));
    assertTrue(bestEffort.isEmpty(), "the paper's best-effort atom(b,1,h,1,0) reserves nothing");
  }

  @Test
  void nonRigidGangsAreRewrittenIntoAllOfOrdersOfRigidAtoms() {
    CompilerOptions rigid = CompilerOptions.DEFAULT.withRigidGangs(true);
    // g=2, h=6 (3 lanes), l=3, w=24: 4 leases of 2 bundles x 3 steps, dealt round-robin over the
    // lanes
    CompiledRdl c =
        ((CompileResult.Compiled) RdlCompiler.compile(window(atom(B, 2, 6, 3, 24), 0, 50), rigid))
            .rdl();
    CompiledOp root = assertInstanceOf(CompiledOp.class, c.root().orElseThrow());
    assertEquals(CompiledOp.Op.ALL, root.op());
    CompiledOp lane0 = assertInstanceOf(CompiledOp.class, root.children().get(0));
    assertEquals(CompiledOp.Op.ORDER, lane0.op());
    assertEquals(
        List.of(
            "window.atom~lane0.piece0",
            "window.atom~lane0.piece1",
            "window.atom~lane1.piece0",
            "window.atom~lane2.piece0"),
        c.atoms().stream().map(CompiledAtom::path).toList());
    for (CompiledAtom a : c.atoms()) {
      assertTrue(a.isRigid(), a.toString());
      assertEquals(List.of("window.atom"), a.sources());
    }
    assertEquals(24, c.work());
    // w/g = 7 gang-steps with l = 3: leases of 3 and 4 (the remainder lengthens the last one)
    CompiledRdl tail =
        ((CompileResult.Compiled) RdlCompiler.compile(window(atom(B, 2, 4, 3, 14), 0, 50), rigid))
            .rdl();
    assertEquals(
        List.of(List.of(3L, 6L), List.of(4L, 8L)),
        tail.atoms().stream().map(a -> List.of(a.l(), a.w())).toList());
    // rigid atoms and malleable ones are left alone
    assertEquals(
        1,
        ((CompileResult.Compiled) RdlCompiler.compile(window(atom(B, 4, 4, 5, 20), 0, 9), rigid))
            .rdl()
            .atoms()
            .size());
  }

  @Test
  void minimumLengthsAndWorkFollowTheOperators() {
    CompiledRdl c =
        compiled(
            window(
                order(all(atom(B, 1, 4, 2, 40), atom(B, 1, 6, 2, 24)), atom(B, 5, 5, 10, 50)),
                0,
                100));
    CompiledNode root = c.root().orElseThrow();
    assertEquals(20, root.minLength(), "max(10, 4) + 10");
    assertEquals(114, root.work());
    assertEquals(0, c.earliestStart());
    assertEquals(100, c.latestEnd());
  }
}

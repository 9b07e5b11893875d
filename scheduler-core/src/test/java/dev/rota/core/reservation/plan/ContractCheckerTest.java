package dev.rota.core.reservation.plan;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.compiled;
import static dev.rota.core.reservation.rdl.Rdl.any;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The checker the property tests rely on must itself catch every kind of broken allocation. */
class ContractCheckerTest {
  /** order(atom(b,2,4,2,8) in [0,10), any(atom(b,1,1,1,2), atom(b,1,2,1,2))) in [0, 20). */
  static final CompiledRdl CONTRACT =
      compiled(
          window(
              order(
                  window(atom(B, 2, 4, 2, 8), 0, 10),
                  any(atom(B, 1, 1, 1, 2), atom(B, 1, 2, 1, 2))),
              0,
              20));

  static final String FIRST = "window.order[0].window.atom";
  static final String ALT0 = "window.order[1].any[0].atom";
  static final String ALT1 = "window.order[1].any[1].atom";

  static AtomAllocation at(String path, Block... bs) {
    return new AtomAllocation(path, List.of(path), B, List.of(bs));
  }

  record Case(String name, Allocation allocation, String path, String says) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> broken() {
    AtomAllocation okFirst = at(FIRST, new Block(6, 8, 4));
    AtomAllocation okAlt = at(ALT0, new Block(10, 12, 1));
    return Stream.of(
        new Case(
            "too little work",
            new Allocation(List.of(at(FIRST, new Block(6, 8, 2)), okAlt)),
            FIRST,
            "allocated 4 bundle-steps, w = 8"),
        new Case(
            "a block outside the window",
            new Allocation(List.of(at(FIRST, new Block(9, 11, 4)), okAlt)),
            FIRST,
            "outside the window [0, 10)"),
        new Case(
            "a block shorter than the lease",
            new Allocation(List.of(at(FIRST, new Block(6, 7, 4), new Block(7, 8, 4)), okAlt)),
            FIRST,
            "less than l = 2"),
        new Case(
            "a block that is not a multiple of g",
            new Allocation(List.of(at(FIRST, new Block(4, 6, 1), new Block(6, 8, 3)), okAlt)),
            FIRST,
            "not a multiple of g = 2"),
        new Case(
            "more than h at once",
            new Allocation(
                List.of(
                    at(FIRST, new Block(6, 8, 4), new Block(7, 9, 2)),
                    at(ALT0, new Block(10, 12, 1)))),
            FIRST,
            "holds 6 bundles at step 7"),
        new Case(
            "order violated",
            new Allocation(List.of(okFirst, at(ALT0, new Block(7, 9, 1)))),
            "window.order",
            "operand 0 ends at 8 after operand 1 starts at 7"),
        new Case(
            "two alternatives of an any",
            new Allocation(List.of(okFirst, okAlt, at(ALT1, new Block(10, 11, 2)))),
            "window.order[1].any",
            "2 alternatives are allocated"),
        new Case("a missing atom", new Allocation(List.of(okAlt)), FIRST, "not allocated"));
  }

  @ParameterizedTest
  @MethodSource("broken")
  void catches(Case c) {
    List<ContractChecker.Violation> v = ContractChecker.check(CONTRACT, c.allocation());
    assertTrue(
        v.stream().anyMatch(x -> x.path().equals(c.path()) && x.message().contains(c.says())),
        v.toString());
  }

  @org.junit.jupiter.api.Test
  void acceptsAValidAllocation() {
    assertEquals(
        List.of(),
        ContractChecker.check(
            CONTRACT,
            new Allocation(
                List.of(at(FIRST, new Block(6, 8, 4)), at(ALT1, new Block(10, 11, 2))))));
  }
}

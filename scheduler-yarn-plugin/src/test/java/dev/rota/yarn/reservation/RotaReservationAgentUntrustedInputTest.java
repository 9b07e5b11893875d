package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.rdl.RdlParser;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ContractValidationException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.junit.jupiter.api.Test;

/**
 * Issue #18 part 6 for the {@code rota-rdl:} reservation name: hostile RDL is refused by Rota's
 * agent in Hadoop's real plan with the {@link ContractValidationException} the client sees, naming
 * the field and the limit; nothing is added to the plan and nothing else escapes.
 */
class RotaReservationAgentUntrustedInputTest {

  private static final InMemoryPlan PLAN =
      Plans.plan(10, Plans.conf(Map.of(ReservationKeys.KEY_AGENT, "gree")));

  private static String rejection(String rdl) {
    ReservationId id = Plans.newId();
    PlanningException e =
        assertThrows(
            PlanningException.class,
            () ->
                PLAN.getReservationAgent()
                    .createReservation(id, "alice", PLAN, Plans.rdl(rdl, Plans.anchor(), 100)));
    assertInstanceOf(ContractValidationException.class, e, e.getMessage());
    assertEquals(null, PLAN.getReservationById(id));
    return e.getMessage();
  }

  @Test
  void aTenMegabyteNameIsRefusedNamingTheLimitWithoutQuotingIt() {
    String rdl = "window(" + "atom(<1024,1>,1,1,1,1),".repeat(10 * 1024 * 1024 / 23) + ")";
    String m = rejection(rdl);
    assertTrue(m.contains("reservation name of at most " + RdlParser.MAX_TEXT_CHARS), m);
    assertTrue(m.contains("(RdlParser.MAX_TEXT_CHARS)"), m);
    assertTrue(m.length() < 500, "the message quotes none of the name: " + m.length());
  }

  @Test
  void letDoublingAndDeepNestingAreRefusedNamingTheLimit() {
    StringBuilder doubling = new StringBuilder("let a0 = atom(<1024,1>,1,1,1,1);");
    for (int i = 1; i <= 40; i++) {
      doubling
          .append(" let a")
          .append(i)
          .append(" = all(a")
          .append(i - 1)
          .append(", a")
          .append(i - 1)
          .append(");");
    }
    String m = rejection(doubling.append(" window(a40, 0, 100)").toString());
    assertTrue(m.contains("(RdlParser.MAX_NODES)"), m);
    m = rejection("order(".repeat(5_000) + "atom(<1024,1>,1,1,1,1)" + ")".repeat(5_000));
    assertTrue(m.contains("(RdlParser.MAX_NESTING)"), m);
  }

  @Test
  void aWindowEndingAtTheLastLongIsPlacedWithinTheDefinitionsOwnWindow() throws Exception {
    ReservationId id = Plans.newId();
    assertTrue(
        PLAN.getReservationAgent()
            .createReservation(
                id,
                "alice",
                PLAN,
                Plans.rdl(
                    "window(atom(<1024,1>,1,2,1,4), 0, 9223372036854775807)",
                    Plans.anchor(),
                    100)));
    PLAN.deleteReservation(id);
  }
}

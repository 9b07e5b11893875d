package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;

/**
 * Fuzz target for the {@code rota-rdl:} reservation name, the free text an application hands the
 * ResourceManager: it goes through Rota's agent in Hadoop's real {@link InMemoryPlan} (GREE), as
 * {@code ClientRMService} would call it. The only exception that may escape is Hadoop's {@link
 * PlanningException} (the client sees its message); an accepted reservation is deleted again so the
 * plan stays empty. The placement line reader sees the same name. Regression inputs under {@code
 * src/test/resources/dev/rota/yarn/reservation/ReservationNameFuzzTestInputs/<method>/}.
 */
class ReservationNameFuzzTest {

  private static final InMemoryPlan PLAN =
      Plans.plan(10, Plans.conf(Map.of(ReservationKeys.KEY_AGENT, "gree")));

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "atom(<1024,1>, 1, 4, 2, 40)",
    "window(",
    "order(",
    "all(",
    "any(",
    "let e = ",
    "\\x0A# rota-placed nb=0 window.atom@0+1*1",
    "9223372036854775807",
    ", 0, 100)"
  })
  void reservationName(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    ReservationDefinition d = Plans.rdl(text, Plans.anchor(), 100);
    RdlCarrier.placement(d.getReservationName()); // never throws: empty when malformed
    ReservationId id = Plans.newId();
    try {
      if (PLAN.getReservationAgent().createReservation(id, "alice", PLAN, d)) {
        PLAN.deleteReservation(id);
      }
    } catch (PlanningException e) {
      assertNotNull(e.getMessage());
    }
  }

  /**
   * The one-level form an application may send instead (Hadoop's ReservationRequests: capability,
   * containers, concurrency, duration, interpreter), any values Hadoop's records hold.
   */
  @FuzzTest(maxDuration = "2m")
  void flatDefinition(FuzzedDataProvider data) {
    long anchor = Plans.anchor();
    List<ReservationRequest> stages = new ArrayList<>();
    int n = data.consumeInt(0, 4);
    for (int i = 0; i < n; i++) {
      stages.add(
          ReservationRequest.newInstance(
              Resource.newInstance(data.consumeLong(), data.consumeInt()),
              data.consumeInt(),
              data.consumeInt(),
              data.consumeLong()));
    }
    ReservationRequestInterpreter interpreter =
        data.pickValue(ReservationRequestInterpreter.values());
    long length = data.consumeLong(-10, 1_000);
    ReservationDefinition d =
        ReservationDefinition.newInstance(
            anchor * Plans.STEP,
            (anchor + length) * Plans.STEP,
            ReservationRequests.newInstance(stages, interpreter),
            data.consumeRemainingAsString(),
            "0",
            null);
    ReservationId id = Plans.newId();
    try {
      if (PLAN.getReservationAgent().createReservation(id, "alice", PLAN, d)) {
        PLAN.deleteReservation(id);
      }
    } catch (PlanningException e) {
      assertNotNull(e.getMessage());
    }
  }
}

package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.ExecutionType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadSpecTest {
  private static WorkloadSpec twoStage() {
    return new WorkloadSpec(
        "job-7",
        "root.prod",
        3,
        ExecutionType.OPPORTUNISTIC,
        Optional.of("reservation_1700000000000_0001"),
        List.of(
            new WorkloadSpec.Stage(0, 1024, 1, List.of(), List.of(1500L, 2300L, 0L)),
            new WorkloadSpec.Stage(1, 2048, 2, List.of(0), List.of(800L)),
            new WorkloadSpec.Stage(2, 512, 1, List.of(0, 1), List.of(100L, 200L))));
  }

  @Test
  void encodeDecodeRoundTripKeepsEveryField() {
    WorkloadSpec spec = twoStage();
    String text = spec.encode();
    assertEquals(spec, WorkloadSpec.decode(text));
    assertEquals(
        "rota-workload/1;job=job-7;queue=root.prod;priority=3;execution=OPPORTUNISTIC;"
            + "reservation=reservation_1700000000000_0001;stage=0/1024/1/-/1500,2300,0;stage=1/2048/2/0/800;"
            + "stage=2/512/1/0+1/100,200",
        text);
  }

  @Test
  void theTaskLoadTravelsAsAnOptionalFieldAndAnUnknownOneIsNamed() {
    WorkloadSpec sleep = WorkloadSpec.simple("job-1", "root.default", 1024, 1, List.of(1000L));
    assertFalse(sleep.encode().contains("load="), "the default is not written");
    assertEquals(WorkloadSpec.Load.SLEEP, WorkloadSpec.decode(sleep.encode()).load());
    for (WorkloadSpec.Load l : WorkloadSpec.Load.values()) {
      assertEquals(sleep.withLoad(l), WorkloadSpec.decode(sleep.withLoad(l).encode()));
    }
    assertTrue(
        sleep
            .withLoad(WorkloadSpec.Load.DISK)
            .encode()
            .endsWith(";load=disk;stage=0/1024/1/-/1000"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WorkloadSpec.decode(sleep.encode().replace(";stage", ";load=gpu;stage")));
    assertEquals("workload spec load must be sleep, cpu or disk, got 'gpu'", e.getMessage());
  }

  @Test
  void roundTripWithoutReservation() {
    WorkloadSpec spec =
        WorkloadSpec.simple("job-1", "root.default", 1024, 1, List.of(1000L, 2000L));
    WorkloadSpec back = WorkloadSpec.decode(spec.encode());
    assertEquals(spec, back);
    assertEquals(Optional.empty(), back.reservationId());
    assertEquals(ExecutionType.GUARANTEED, back.executionType());
    assertEquals(2, back.taskCount());
  }

  @Test
  void encodedFormIsOneShellSafeLine() {
    String text = twoStage().encode();
    assertFalse(text.contains("\n"));
    assertFalse(text.matches(".*[\"'$`\\\\ ].*"), text);
  }

  @Test
  void withersChangeOnlyTheirField() {
    WorkloadSpec spec = WorkloadSpec.simple("job-1", "root.default", 1024, 1, List.of(1000L));
    WorkloadSpec opp =
        spec.withExecutionType(ExecutionType.OPPORTUNISTIC).withReservation("reservation_1_0002");
    assertEquals(ExecutionType.OPPORTUNISTIC, opp.executionType());
    assertEquals(Optional.of("reservation_1_0002"), opp.reservationId());
    assertEquals(spec.stages(), opp.stages());
  }

  @Test
  void decodeNamesWhatIsWrong() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.decode(null))
            .getMessage()
            .contains(WorkloadSpec.ENV));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> WorkloadSpec.decode("rota-workload/9;job=x"))
            .getMessage()
            .contains("must start with"));
    String noQueue =
        "rota-workload/1;job=j;priority=0;execution=GUARANTEED;reservation=-;stage=0/1/1/-/5";
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.decode(noQueue))
            .getMessage()
            .contains("'queue'"));
    String badStage =
        "rota-workload/1;job=j;queue=q;priority=0;execution=GUARANTEED;reservation=-;stage=0/1/1/5";
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.decode(badStage))
            .getMessage()
            .contains("stage must be"));
    String badNumber =
        "rota-workload/1;job=j;queue=q;priority=0;execution=GUARANTEED;reservation=-;stage=0/1/1/-/x";
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.decode(badNumber))
            .getMessage()
            .contains("non-integer"));
  }

  @Test
  void rejectsUnsafeNamesAndForwardDependencies() {
    assertThrows(
        IllegalArgumentException.class,
        () -> WorkloadSpec.simple("job 1", "root.default", 1024, 1, List.of(1L)));
    assertThrows(
        IllegalArgumentException.class,
        () -> WorkloadSpec.simple("job-1", "root;default", 1024, 1, List.of(1L)));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new WorkloadSpec(
                "j",
                "q",
                0,
                ExecutionType.GUARANTEED,
                Optional.empty(),
                List.of(new WorkloadSpec.Stage(0, 1, 1, List.of(0), List.of(1L)))));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new WorkloadSpec(
                "j",
                "q",
                0,
                ExecutionType.GUARANTEED,
                Optional.empty(),
                List.of(new WorkloadSpec.Stage(1, 1, 1, List.of(), List.of(1L)))));
    assertThrows(
        IllegalArgumentException.class,
        () -> new WorkloadSpec.Stage(0, 1, 1, List.of(), List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> new WorkloadSpec.Stage(0, 0, 1, List.of(), List.of(1L)));
  }

  @Test
  void nodeConstraintsRoundTripInBothAskModes() {
    var placement = new WorkloadSpec.NodeConstraint("rm.yarn.io/name", List.of("M1", "M2"));
    var strict = new WorkloadSpec.NodeConstraint("name", List.of("M2", "M3"), true);
    assertEquals("rm.yarn.io/name:M1+M2", placement.encode());
    assertEquals("name:M2+M3:hosts", strict.encode());
    assertEquals(placement, WorkloadSpec.NodeConstraint.decode(placement.encode()));
    assertEquals(strict, WorkloadSpec.NodeConstraint.decode(strict.encode()));
    assertEquals("rm.yarn.io", strict.prefix());
    assertEquals("name", strict.name());
    assertEquals(
        "nm.yarn.io", new WorkloadSpec.NodeConstraint("nm.yarn.io/t", List.of("a")).prefix());
    // a value may be called "hosts"; only a trailing ":hosts" after the values is the mode
    var named = WorkloadSpec.NodeConstraint.decode("name:hosts");
    assertEquals(List.of("hosts"), named.values());
    assertFalse(named.strictLocality());
    assertThrows(
        IllegalArgumentException.class, () -> WorkloadSpec.NodeConstraint.decode("name:M1:other"));
    assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.NodeConstraint.decode("name"));
  }
}

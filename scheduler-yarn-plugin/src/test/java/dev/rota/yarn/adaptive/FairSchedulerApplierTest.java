package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FairSchedulerApplierTest {

  @TempDir Path dir;

  private Path file;
  private SchedulerFileStore store;
  private int refreshes;

  @BeforeEach
  void setUp() throws IOException {
    file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, FairSchedulerXmlTest.ALLOCATIONS);
    store = new SchedulerFileStore(file, 3);
  }

  private static final Map<String, FairSchedulerXml.Settings> CHANGE =
      Map.of(
          "root.alpha.high", FairSchedulerXml.Settings.NONE.withWeight(5),
          "root.alpha.low",
              FairSchedulerXml.Settings.NONE.withWeight(1).withSchedulingPolicy("fair"));

  @Test
  void writesAtomicallyKeepsThePreviousVersionAndRefreshes() throws Exception {
    FairSchedulerApplier a = new FairSchedulerApplier(store, q -> true, () -> refreshes++);
    byte[] before = Files.readAllBytes(file);
    FairSchedulerXml current = FairSchedulerXml.read(file);

    CapacityApplier.Result r = a.apply(before, a.candidate(current, CHANGE));

    assertEquals(CapacityApplier.Outcome.APPLIED, r.outcome());
    assertEquals(1, refreshes);
    assertArrayEquals(before, Files.readAllBytes(dir.resolve("fair-scheduler.xml.previous")));
    FairSchedulerXml now = FairSchedulerXml.read(file);
    assertEquals(5.0, now.queues().get("root.alpha.high").settings().weight().getAsDouble());
    assertEquals(
        "fair", now.queues().get("root.alpha.low").settings().schedulingPolicy().orElseThrow());
    assertTrue(Files.readString(file).contains("<!-- two groups, weights tuned by Rota -->"));
  }

  @Test
  void aFailedRefreshRestoresTheLastGoodFile() throws Exception {
    FairSchedulerApplier a =
        new FairSchedulerApplier(
            store,
            q -> true,
            () -> {
              if (++refreshes == 1) {
                throw new IOException("Failed to reload allocations");
              }
            });
    byte[] before = Files.readAllBytes(file);

    CapacityApplier.Result r = a.apply(before, a.candidate(FairSchedulerXml.read(file), CHANGE));

    assertEquals(CapacityApplier.Outcome.ROLLED_BACK, r.outcome());
    assertTrue(
        r.detail()
            .startsWith(
                "refreshQueues failed: Failed to reload allocations; restored the last good"),
        r.detail());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(2, refreshes);
  }

  @Test
  void anInvalidCandidateOrAQueueMissingFromTheSchedulerWritesNothing() throws Exception {
    FairSchedulerApplier a =
        new FairSchedulerApplier(store, q -> !q.equals("root.alpha.low"), () -> refreshes++);
    FairSchedulerXml current = FairSchedulerXml.read(file);
    InvalidSchedulerFileException gone =
        assertThrows(InvalidSchedulerFileException.class, () -> a.candidate(current, CHANGE));
    assertEquals(
        file
            + " queue root.alpha.low does not exist in the running scheduler (it disappeared between reading and"
            + " writing)",
        gone.getMessage());
    InvalidSchedulerFileException drf =
        assertThrows(
            InvalidSchedulerFileException.class,
            () ->
                a.candidate(
                    current,
                    Map.of(
                        "root.alpha.high",
                        FairSchedulerXml.Settings.NONE.withSchedulingPolicy("drf"))));
    assertTrue(
        drf.getMessage().contains("'drf' under a 'fair' parent root.alpha"), drf.getMessage());
    assertEquals(FairSchedulerXmlTest.ALLOCATIONS, Files.readString(file));
    assertFalse(Files.exists(dir.resolve("fair-scheduler.xml.previous")));
    assertEquals(0, refreshes);
  }
}

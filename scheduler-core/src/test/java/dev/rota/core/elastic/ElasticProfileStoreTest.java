package dev.rota.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile store: bounded per key, saved and loaded exactly, corrupt files refused whole. */
class ElasticProfileStoreTest {
  @TempDir Path dir;

  static final AppKey A = new AppKey("terasort", 32, 3, 8);
  static final AppKey B = new AppKey("pagerank", 2.8, 2, 4.5);

  @Test
  void keepsTheLatestRunsPerKeyAndRoundTripsExactly() throws Exception {
    ProfileStore store = new ProfileStore(3);
    for (int i = 1; i <= 5; i++) {
      store.record(A, ElasticPredictorTest.cpuOnly(new double[] {i, 0.001 * i}, 1, 2));
    }
    store.record(B, Fig6.RUNNING);
    assertEquals(4, store.size());
    assertEquals(3.0, store.runs(A).get(0).value(ElasticResource.CPU, 0)); // runs 3, 4, 5 kept
    Path file = dir.resolve("profiles.txt");
    store.save(file);
    ProfileStore back = ProfileStore.load(file, 3);
    assertEquals(store.snapshot(), back.snapshot());
    assertEquals(List.of(A, B), List.copyOf(back.keys()));
    assertTrue(Files.readString(file).contains("\nrota-elastic-profiles 1\n"));
  }

  static String header = "rota-elastic-profiles 1\n";
  static String good = "run lr 7.5 3.0 8.0 1,2 3000,1000 8192000,8192000 0,4000000 170000,0\n";

  @Test
  void aCorruptFileIsRefusedNamingTheLineAndNothingIsApplied() throws Exception {
    ProfileStore store = new ProfileStore();
    store.record(A, Fig6.RUNNING);
    long version = store.version();
    String[][] cases = {
      {"rota-elastic-profiles 2\n" + good, "line 1: unsupported profile format version 2"},
      {"profiles\n", "line 1: expected the header 'rota-elastic-profiles 1'"},
      {header + good + "run lr 7.5 3.0 8.0 1,2 3000\n", "line 3: expected 'run TYPE"},
      {
        header + good + good.replace("3000,1000", "3000,-5"),
        "line 3: demand series: vcores at slot 1 is negative (-0.005)"
      },
      {header + good.replace("1,2 ", "2,1 "), "line 2: demand series: stage ends must increase"},
      {
        header + good.replace("3000,1000", "3000,x"),
        "line 2: vcores at slot 1: 'x' is not an integer"
      },
      {
        header + good.replace(" 7.5 ", " -1 "),
        "line 2: application lr: input size (GB) must be a positive"
      },
      {
        header + good.replace("0,4000000", "0"),
        "line 2: demand series: network-mbps has 1 slots but vcores has 2"
      },
      {"# nothing\n", "empty, no 'rota-elastic-profiles 1' header"},
    };
    for (String[] c : cases) {
      Path file = dir.resolve("bad.txt");
      Files.writeString(file, c[0]);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> store.replaceWith(file));
      assertTrue(e.getMessage().contains(c[1]), e.getMessage());
      assertTrue(e.getMessage().startsWith("profile store " + file), e.getMessage());
      assertEquals(version, store.version());
      assertEquals(List.of(Fig6.RUNNING), store.runs(A));
    }
    Path ok = dir.resolve("ok.txt");
    Files.writeString(ok, "# a comment\n\n" + header + good);
    store.replaceWith(ok);
    AppKey lr = new AppKey("lr", 7.5, 3, 8);
    assertEquals(List.of(lr), List.copyOf(store.keys()));
    assertEquals(4000.0, store.runs(lr).get(0).value(ElasticResource.NETWORK, 1));
  }

  @Test
  void aStoreKeepsAtLeastThreeRuns() {
    assertThrows(IllegalArgumentException.class, () -> new ProfileStore(2));
  }
}

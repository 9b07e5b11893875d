package dev.rota.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.elastic.Contention.Amounts;
import dev.rota.core.elastic.Contention.Claim;
import dev.rota.core.elastic.Contention.Outcome;
import dev.rota.core.elastic.Contention.SpillModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class ElasticContentionTest {
  static final double INF = Double.POSITIVE_INFINITY;

  /** 16 cores, 64 GiB, 10 Gbit/s, 500 MB/s. */
  static final Amounts NODE = new Amounts(16, 65536, 10000, 500);

  @Test
  void anExecutorShortOfCpuProgressesAtItsShareOfTheDemand() {
    Amounts demand = new Amounts(4, 1024, 1000, 100);
    Amounts alloc = new Amounts(2, 1024, 1000, 100);
    assertEquals(0.5, Contention.progressRate(alloc, demand));

    Outcome o =
        Contention.share(NODE, List.of(new Claim(demand, alloc)), SpillModel.DEFAULT).get(0);
    assertEquals(0.5, o.rate());
    // it uses half of everything it would at full speed, and the memory it got
    assertEquals(new Amounts(2, 1024, 500, 50), o.usage());
    assertEquals(0, o.spillDisk());
  }

  @Test
  void theScarcestResourceSetsTheRate() {
    assertEquals(
        0.25,
        Contention.progressRate(new Amounts(4, 0, 250, 100), new Amounts(4, 4096, 1000, 200)));
    // memory is not in the minimum (it becomes spill), and a resource not demanded does not count
    assertEquals(1.0, Contention.progressRate(new Amounts(1, 0, 0, 0), new Amounts(1, 4096, 0, 0)));
  }

  @Test
  void anOversubscribedUnmanagedResourceIsSharedInProportionToDemand() {
    // Static leaves the network unmanaged: 12 + 8 Gbit/s asked of a 10 Gbit/s NIC
    Amounts managedCpuMem = new Amounts(2, 4096, INF, INF);
    List<Outcome> out =
        Contention.share(
            NODE,
            List.of(
                new Claim(new Amounts(2, 4096, 12000, 0), managedCpuMem),
                new Claim(new Amounts(2, 4096, 8000, 0), managedCpuMem)),
            SpillModel.DEFAULT);
    assertEquals(0.5, out.get(0).rate());
    assertEquals(0.5, out.get(1).rate());
    assertEquals(new Amounts(1, 4096, 6000, 0), out.get(0).usage());
    assertEquals(new Amounts(1, 4096, 4000, 0), out.get(1).usage());
  }

  @Test
  void whatFitsIsNotSlowed() {
    List<Outcome> out =
        Contention.share(
            NODE,
            List.of(
                new Claim(new Amounts(8, 8192, 6000, 200), Amounts.UNLIMITED),
                new Claim(new Amounts(8, 8192, 4000, 300), Amounts.UNLIMITED)),
            SpillModel.DEFAULT);
    assertEquals(1.0, out.get(0).rate());
    assertEquals(new Amounts(8, 8192, 4000, 300), out.get(1).usage());
  }

  @Test
  void aMemoryShortfallSpillsToDiskAndSlowsInsteadOfFailing() {
    // half the memory: 2048 MiB short, written and read back every 64 s = 64 MB/s more disk;
    // disk 80 + 64 = 144 fits the node, so only the spill factor 1 + 1 x 1/2 slows it: 2/3
    SpillModel spill = new SpillModel(64, 1);
    Outcome o =
        Contention.share(
                NODE,
                List.of(new Claim(new Amounts(2, 4096, 0, 80), new Amounts(2, 2048, INF, INF))),
                spill)
            .get(0);
    assertEquals(64.0, o.spillDisk());
    assertEquals(2.0 / 3, o.rate());
    assertEquals(new Amounts(2 / 1.5, 2048, 0, 96), o.usage());
  }

  @Test
  void spillCompetesForAManagedDiskAllocationWhenHeldToIt() {
    // the same shortfall with the disk capped at 72 MB/s: 72 / 144 = 1/2, then / 1.5 = 1/3
    Outcome o =
        Contention.share(
                NODE,
                List.of(new Claim(new Amounts(2, 4096, 0, 80), new Amounts(2, 2048, INF, 72))),
                new SpillModel(64, 1, true))
            .get(0);
    assertEquals(1.0 / 3, o.rate());
    assertEquals(48.0, o.usage().disk());
  }

  @Test
  void byDefaultSpillIsHeldOnlyToTheNodesDisk() {
    // the same claim under the default: entitled min(72, 80) + 64 = 136 of 144 MB/s (the node has
    // room), so the disk gives 136/144 = 17/18, then the spill factor 1.5: 17/27
    assertEquals(false, SpillModel.DEFAULT.withinAllocation());
    Claim c = new Claim(new Amounts(2, 4096, 0, 80), new Amounts(2, 2048, INF, 72));
    Outcome o = Contention.share(NODE, List.of(c), new SpillModel(64, 1)).get(0);
    assertEquals(64.0, o.spillDisk());
    assertEquals(17.0 / 27, o.rate(), 1e-12);
    assertEquals(144 * (17.0 / 27), o.usage().disk(), 1e-9);
    // the node's disk is still shared: two such executors on a 200 MB/s disk get 100 of 136 each
    Amounts small = new Amounts(16, 65536, 10_000, 200);
    List<Outcome> two = Contention.share(small, List.of(c, c), new SpillModel(64, 1));
    assertEquals(100.0 / 144 / 1.5, two.get(0).rate(), 1e-12);
  }

  @Test
  void oversubscribedMemoryIsSharedAndBecomesSpill() {
    // 40 + 40 GiB of unmanaged memory on 64 GiB: each gets 32 GiB, 8 GiB short (1/5)
    Amounts demand = new Amounts(1, 40960, 0, 0);
    List<Outcome> out =
        Contention.share(
            NODE,
            List.of(new Claim(demand, Amounts.UNLIMITED), new Claim(demand, Amounts.UNLIMITED)),
            new SpillModel(64, 1));
    assertEquals(32768.0, out.get(0).usage().memory());
    assertEquals(256.0, out.get(0).spillDisk()); // 2 x 8192 / 64
    // disk 256 + 256 = 512 > 500: each gets 250 of 256; rate (250/256) / 1.2
    assertEquals(250.0 / 256 / 1.2, out.get(0).rate());
  }

  @Test
  void invalidAmountsAreRefused() {
    var e = assertThrows(IllegalArgumentException.class, () -> new Amounts(1, Double.NaN, 0, 0));
    assertEquals("memory amount must be >= 0, got NaN", e.getMessage());
    var f =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Claim(new Amounts(INF, 0, 0, 0), Amounts.UNLIMITED));
    assertEquals(
        "an executor's demand must be finite, got Amounts[cpu=Infinity, memory=0.0, network=0.0,"
            + " disk=0.0]",
        f.getMessage());
  }
}

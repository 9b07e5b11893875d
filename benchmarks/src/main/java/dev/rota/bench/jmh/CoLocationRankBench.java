package dev.rota.bench.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Co-location's ordering ({@code CoLocationPolicy.rank}) beside FIFO's, on {@link
 * CoLocationFixture}'s cluster: the 50 waiting jobs ranked for a node that runs one job (jobs that
 * would make a node host a third distinct job are left out).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CoLocationRankBench extends CoLocationFixture {

  @Benchmark
  public List<dev.rota.core.policy.JobView> rotaRank() {
    return cached.rank(0, waiting, view);
  }

  @Benchmark
  public List<dev.rota.core.policy.JobView> stockFifoRank() {
    return fifo.rank(0, waiting, view);
  }
}

package dev.rota.bench.jmh;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.policy.Decision;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Co-location admission beside FIFO's, on {@link CoLocationFixture}'s cluster. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CoLocationAdmitBench extends CoLocationFixture {

  /** A learner that has chosen nothing yet, one per call. */
  @State(Scope.Thread)
  public static class Fresh {
    CoLocationPolicy policy;

    @Setup(Level.Invocation)
    public void setUp() {
      policy = fresh();
    }
  }

  @Benchmark
  public Decision rotaAdmitSample(Fresh f) {
    return f.policy.admit(waiting.get(0), view);
  }

  @Benchmark
  public Decision rotaAdmitCached() {
    return cached.admit(waiting.get(0), view);
  }

  @Benchmark
  public Decision stockFifoAdmit() {
    return fifo.admit(waiting.get(0), view);
  }
}

package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The allocation of one compiled atom: its lease blocks in the order they were placed.
 *
 * @param atomPath the compiled atom's path, e.g. {@code order[1].all[0].atom}
 * @param sources the source atoms it stands for (more than one after unification)
 * @param bundle the atom's bundle b
 * @param blocks lease blocks; blocks may overlap in time (GREE stacks them)
 */
public record AtomAllocation(
    String atomPath, List<String> sources, Resource bundle, List<Block> blocks) {
  public AtomAllocation {
    Objects.requireNonNull(atomPath, "atomPath");
    Objects.requireNonNull(bundle, "bundle");
    sources = List.copyOf(sources);
    blocks = List.copyOf(blocks);
  }

  /** Total bundle-steps allocated (must equal the atom's w for a satisfied atom). */
  public long work() {
    long w = 0;
    for (Block b : blocks) {
      w = Math.addExact(w, b.work());
    }
    return w;
  }

  /** Bundles held at each step, as a resource step function (bundle times count). */
  public StepFunction profile() {
    RleSkyline s = new RleSkyline();
    for (Block b : blocks) {
      s.add(b.start(), b.end(), bundle.times(b.bundles()));
    }
    return s.snapshot();
  }

  /** Number of bundles held at step {@code t}. */
  public long bundlesAt(long t) {
    long n = 0;
    for (Block b : blocks) {
      if (b.start() <= t && t < b.end()) {
        n += b.bundles();
      }
    }
    return n;
  }

  public long start() {
    return blocks.stream().mapToLong(Block::start).min().orElseThrow();
  }

  public long end() {
    return blocks.stream().mapToLong(Block::end).max().orElseThrow();
  }

  /** The same atom with {@code extra} blocks appended (sorted by start, then end). */
  public AtomAllocation plus(List<Block> extra) {
    List<Block> all = new ArrayList<>(blocks);
    all.addAll(extra);
    all.sort(Comparator.comparingLong(Block::start).thenComparingLong(Block::end));
    return new AtomAllocation(atomPath, sources, bundle, all);
  }
}

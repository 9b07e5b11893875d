package dev.rota.core.reservation.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an agent proposes (and the plan commits) for one reservation: the lease blocks of every
 * compiled atom that received work, keyed by atom path. Atoms of {@code any} alternatives that were
 * not chosen, and zero-work atoms, have no entry. Immutable.
 */
public final class Allocation {
  public static final Allocation EMPTY = new Allocation(List.of());

  private final Map<String, AtomAllocation> atoms;
  private final StepFunction total;

  public Allocation(List<AtomAllocation> atoms) {
    Map<String, AtomAllocation> m = new LinkedHashMap<>();
    RleSkyline sum = new RleSkyline();
    for (AtomAllocation a : atoms) {
      if (a.blocks().isEmpty()) {
        continue;
      }
      if (m.put(a.atomPath(), a) != null) {
        throw new IllegalArgumentException(
            "atom " + a.atomPath() + " appears twice in an allocation");
      }
      for (Block b : a.blocks()) {
        sum.add(b.start(), b.end(), a.bundle().times(b.bundles()));
      }
    }
    this.atoms = Collections.unmodifiableMap(m);
    this.total = sum.snapshot();
  }

  /** The per-atom allocations, in the order the atoms appear in the compiled expression. */
  public List<AtomAllocation> atoms() {
    return List.copyOf(atoms.values());
  }

  public Optional<AtomAllocation> atom(String path) {
    return Optional.ofNullable(atoms.get(path));
  }

  /** The reservation's total resources over time (what the plan commits). */
  public StepFunction total() {
    return total;
  }

  public boolean isEmpty() {
    return atoms.isEmpty();
  }

  /** First step with an allocation, if any. */
  public OptionalLong start() {
    return atoms.values().stream().mapToLong(AtomAllocation::start).min();
  }

  /** One past the last step with an allocation, if any. */
  public OptionalLong end() {
    return atoms.values().stream().mapToLong(AtomAllocation::end).max();
  }

  /** Total bundle-steps over all atoms. */
  public long work() {
    return atoms.values().stream().mapToLong(AtomAllocation::work).sum();
  }

  /** This allocation with {@code other}'s blocks merged in, atom by atom. */
  public Allocation merge(Allocation other) {
    Map<String, AtomAllocation> m = new LinkedHashMap<>(atoms);
    for (AtomAllocation a : other.atoms.values()) {
      m.merge(a.atomPath(), a, (x, y) -> x.plus(y.blocks()));
    }
    return new Allocation(new ArrayList<>(m.values()));
  }

  /** Only the blocks accepted by {@code keep}. */
  public Allocation filterBlocks(java.util.function.Predicate<Block> keep) {
    List<AtomAllocation> out = new ArrayList<>();
    for (AtomAllocation a : atoms.values()) {
      out.add(
          new AtomAllocation(
              a.atomPath(), a.sources(), a.bundle(), a.blocks().stream().filter(keep).toList()));
    }
    return new Allocation(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Allocation a && a.atoms.equals(atoms);
  }

  @Override
  public int hashCode() {
    return atoms.hashCode();
  }

  @Override
  public String toString() {
    return "Allocation" + atoms.values();
  }
}

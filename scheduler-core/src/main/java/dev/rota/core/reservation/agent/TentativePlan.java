package dev.rota.core.reservation.agent;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.RleSkyline;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The scratch space of one placement: the resources still free for this request (the user's
 * available space minus what has been placed tentatively) and the blocks placed so far, per atom.
 * Supports marks and rollback so that a failed {@code any} alternative leaves no trace. Nothing
 * reaches the plan until the whole expression is placed (atomic commit).
 */
final class TentativePlan {
  private final RleSkyline free;
  private final Map<String, List<Block>> blocks = new LinkedHashMap<>();
  private final Map<String, RleSkyline> own = new HashMap<>();
  private final List<Placed> log = new ArrayList<>();

  private record Placed(CompiledAtom atom, Block block) {}

  /** Caps per piece of time: how many gangs of an atom fit at each step of a range. */
  record Cap(long start, long end, long gangs) {}

  TentativePlan(Skyline available) {
    this.free = RleSkyline.copyOf(available);
  }

  int mark() {
    return log.size();
  }

  void rollback(int mark) {
    while (log.size() > mark) {
      Placed p = log.remove(log.size() - 1);
      Resource r = p.atom().bundle().times(p.block().bundles());
      free.add(p.block().start(), p.block().end(), r);
      own.get(p.atom().path()).subtract(p.block().start(), p.block().end(), r);
      List<Block> list = blocks.get(p.atom().path());
      list.remove(list.size() - 1);
    }
  }

  void place(CompiledAtom a, Block b) {
    Resource r = a.bundle().times(b.bundles());
    free.subtract(b.start(), b.end(), r);
    own.computeIfAbsent(a.path(), k -> new RleSkyline()).add(b.start(), b.end(), r);
    blocks.computeIfAbsent(a.path(), k -> new ArrayList<>()).add(b);
    log.add(new Placed(a, b));
  }

  /** The earliest block start among blocks placed since {@code mark}. */
  OptionalLong earliestStartSince(int mark) {
    return log.subList(mark, log.size()).stream().mapToLong(p -> p.block().start()).min();
  }

  /** Work placed for an atom so far (bundle-steps). */
  long workOf(CompiledAtom a) {
    return blocks.getOrDefault(a.path(), List.of()).stream().mapToLong(Block::work).sum();
  }

  /**
   * For each constant piece of [s, e): how many gangs of {@code a} fit, i.e. floor(min(free
   * bundles, h - bundles already given to a) / g), never negative.
   */
  List<Cap> caps(CompiledAtom a, long s, long e) {
    List<Cap> out = new ArrayList<>();
    Skyline mine =
        own.containsKey(a.path())
            ? own.get(a.path())
            : dev.rota.core.reservation.plan.StepFunction.ZERO;
    for (Segment seg : Skylines.zip(free, mine, s, e)) {
      long freeBundles = seg.value().multiplesOf(a.bundle());
      Resource ownNow = mine.at(seg.start());
      long ownBundles = ownNow.isZero() ? 0 : ownNow.multiplesOf(a.bundle());
      long gangs = Math.max(0, Math.min(freeBundles, a.h() - ownBundles)) / a.g();
      if (!out.isEmpty() && out.get(out.size() - 1).gangs() == gangs) {
        Cap last = out.remove(out.size() - 1);
        out.add(new Cap(last.start(), seg.end(), gangs));
      } else {
        out.add(new Cap(seg.start(), seg.end(), gangs));
      }
    }
    return out;
  }

  /**
   * For each constant piece of [s, e): how many gangs of {@code a} the free space holds, floor(free
   * bundles / g), ignoring the atom's height cap h (the "load" side of GREE-L's low-load fill).
   */
  List<Cap> freeGangs(CompiledAtom a, long s, long e) {
    List<Cap> out = new ArrayList<>();
    for (Segment seg : free.segments(s, e)) {
      long gangs = seg.value().multiplesOf(a.bundle()) / a.g();
      if (!out.isEmpty() && out.get(out.size() - 1).gangs() == gangs) {
        Cap last = out.remove(out.size() - 1);
        out.add(new Cap(last.start(), seg.end(), gangs));
      } else {
        out.add(new Cap(seg.start(), seg.end(), gangs));
      }
    }
    return out;
  }

  /** The outcome of scanning one candidate block. */
  sealed interface Scan permits Fits, Blocked {}

  /** The block fits {@code gangs} gangs; {@code tLim} is the leftmost most constrained step. */
  record Fits(long gangs, long tLim) implements Scan {}

  /**
   * Some step cannot hold one gang; {@code point} is the rightmost such step and [runStart, point]
   * the run of blocked steps it belongs to (within the scanned block). Every block that ends after
   * {@code runStart} and no later than {@code point + 1} contains a blocked step, so the search may
   * restart with its right end at {@code runStart}: the same result as restarting at {@code point}
   * and stepping left one blocked step at a time, without the crawl.
   */
  record Blocked(long point, long runStart) implements Scan {}

  /**
   * GREE's block scan (paper §4.2): scanning [s, e) right to left, track the height available to
   * {@code a} (capped at {@code maxGangs}) and the most constrained step. A step that cannot hold
   * one gang blocks the block; the search restarts left of it. Ties choose the leftmost step, as
   * Hadoop's {@code StageAllocatorGreedy} does ({@code <=}).
   */
  Scan scan(CompiledAtom a, long s, long e, long maxGangs) {
    List<Cap> caps = caps(a, s, e);
    for (int i = caps.size() - 1; i >= 0; i--) {
      if (caps.get(i).gangs() < 1) {
        return new Blocked(caps.get(i).end() - 1, caps.get(i).start());
      }
    }
    long height = maxGangs;
    long tLim = e - 1;
    for (int i = caps.size() - 1; i >= 0; i--) {
      long h = Math.min(caps.get(i).gangs(), maxGangs);
      if (h <= height) {
        height = h;
        tLim = caps.get(i).start();
      }
    }
    return new Fits(height, tLim);
  }

  /** The allocation of every atom of {@code contract} that received blocks. */
  Allocation allocation(CompiledRdl contract) {
    List<AtomAllocation> out = new ArrayList<>();
    for (CompiledAtom a : contract.atoms()) {
      List<Block> bs = blocks.get(a.path());
      if (bs != null && !bs.isEmpty()) {
        out.add(new AtomAllocation(a.path(), a.sources(), a.bundle(), bs));
      }
    }
    return new Allocation(out);
  }
}

package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;
import java.util.List;
import java.util.Objects;

/**
 * An atom of the normal form with its effective window [start, end).
 *
 * @param path where it came from (for a unified atom: the first source), e.g. {@code
 *     order[1].atom}; rewritten rigid pieces add a suffix such as {@code ~lane0.piece2}
 * @param sources the source atoms' paths (several after unification)
 */
public record CompiledAtom(
    String path,
    List<String> sources,
    Resource bundle,
    long g,
    long h,
    long l,
    long w,
    long start,
    long end)
    implements CompiledNode {
  public CompiledAtom {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(bundle, "bundle");
    sources = List.copyOf(sources);
    if (g < 1 || h < g || h % g != 0 || l < 1 || w < 1 || w % g != 0 || w / g < l) {
      throw new IllegalArgumentException(
          "not a normal-form atom: " + path + " g=" + g + " h=" + h + " l=" + l + " w=" + w);
    }
    if (start >= end) {
      throw new IllegalArgumentException("empty window [" + start + ", " + end + ") for " + path);
    }
  }

  @Override
  public long minLength() {
    return Math.max(l, ceilDiv(w, h));
  }

  @Override
  public long work() {
    return w;
  }

  /** Rigid gang: g = h and w = h*l. */
  public boolean isRigid() {
    return g == h && w / h == l && w % h == 0;
  }

  /** The same atom with another window. */
  public CompiledAtom withWindow(long s, long f) {
    return new CompiledAtom(path, sources, bundle, g, h, l, w, s, f);
  }

  /** The same atom with another amount of work. */
  public CompiledAtom withWork(long work) {
    return new CompiledAtom(path, sources, bundle, g, h, l, work, start, end);
  }

  /** Back to RDL: {@code window(atom(b, g, h, l, w), start, end)}. */
  public Window toRdl() {
    return new Window(new Atom(bundle, g, h, l, w), start, end);
  }

  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}

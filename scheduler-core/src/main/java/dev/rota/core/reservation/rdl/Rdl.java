package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;
import java.util.List;
import java.util.Objects;

/**
 * Fluent construction of RDL expressions.
 *
 * <pre>{@code
 * Resource b = Resource.of(1024, 1);
 * RdlExpression e = Rdl.order(
 *         Rdl.atom(b).parallelism(1, 10).lease(240).work(2400),
 *         Rdl.atom(b).malleable(20).lease(120).work(2400),
 *         Rdl.rigidGang(b, 15, 120))
 *     .within(0, 800);
 * }</pre>
 */
public final class Rdl {
  private Rdl() {}

  /** {@code atom(b, g, h, l, w)}. */
  public static Atom atom(Resource b, long g, long h, long l, long w) {
    return new Atom(b, g, h, l, w);
  }

  /** Starts an atom over bundle {@code b}; defaults g = 1, l = 1; h and w must be given. */
  public static AtomBuilder atom(Resource b) {
    return new AtomBuilder(b);
  }

  /** A fully malleable atom: g = 1. */
  public static Atom malleable(Resource b, long h, long l, long w) {
    return new Atom(b, 1, h, l, w);
  }

  /**
   * A rigid gang: n bundles together, uninterrupted, for {@code duration} steps (g = h = n, l =
   * duration).
   */
  public static Atom rigidGang(Resource b, long n, long duration) {
    return new Atom(b, n, n, duration, Math.multiplyExact(n, duration));
  }

  public static Window window(RdlExpression e, long start, long end) {
    return new Window(e, start, end);
  }

  public static Order order(RdlExpression... es) {
    return new Order(List.of(es));
  }

  public static All all(RdlExpression... es) {
    return new All(List.of(es));
  }

  public static Any any(RdlExpression... es) {
    return new Any(List.of(es));
  }

  /** Builder for {@link Atom}; each call returns this builder, {@link #work} builds. */
  public static final class AtomBuilder {
    private final Resource bundle;
    private long g = 1;
    private long h = -1;
    private long l = 1;

    private AtomBuilder(Resource bundle) {
      this.bundle = Objects.requireNonNull(bundle, "bundle");
    }

    /** g and h. */
    public AtomBuilder parallelism(long g, long h) {
      this.g = g;
      this.h = h;
      return this;
    }

    /** g = 1, h as given. */
    public AtomBuilder malleable(long h) {
      return parallelism(1, h);
    }

    /** g = h = n. */
    public AtomBuilder gang(long n) {
      return parallelism(n, n);
    }

    /** l, the minimum lease in steps (default 1). */
    public AtomBuilder lease(long l) {
      this.l = l;
      return this;
    }

    /** w, the total work in bundle-steps; builds the atom. */
    public Atom work(long w) {
      if (h < 0) {
        throw new IllegalStateException("set the parallelism (h) before the work");
      }
      return new Atom(bundle, g, h, l, w);
    }
  }
}

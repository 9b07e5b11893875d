package dev.rota.core.reservation.rdl;

/**
 * A node of the compiler's normal form: atoms carry their effective window (windows pushed down),
 * operators are flattened (no order directly inside order, all inside all, any inside any) and have
 * at least two operands. Each node keeps the path of the source sub-expression it came from.
 */
public sealed interface CompiledNode permits CompiledAtom, CompiledOp {
  String path();

  /**
   * A lower bound on the steps any allocation of this node spans, ignoring capacity: max(l,
   * ceil(w/h)) for an atom, the sum over an order, the maximum over an all, the minimum over an
   * any.
   */
  long minLength();

  /** Total work w in bundle-steps (an any counts its largest alternative). */
  long work();
}

package dev.rota.yarn.policy;

import dev.rota.core.policy.Decision;
import dev.rota.core.policy.OfferPolicy;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Where {@link OfferOrderingPolicy} finds its policy. CapacityScheduler creates ordering policies
 * by class name and hands them only their {@code ordering-policy.*} keys, so a queue names its
 * policy in one of two ways:
 *
 * <ul>
 *   <li>{@code ordering-policy.policy-class}: the class name of an {@link OfferPolicy} with a
 *       public no-argument constructor; every queue (and every refresh) gets a new instance. What
 *       operators configure.
 *   <li>{@code ordering-policy.policy-instance}: a name bound in this process with {@link #bind}:
 *       one instance shared with whoever bound it (a test comparing drivers, an embedded cluster).
 *       A binding carries a listener that sees every decision the adapter applies.
 * </ul>
 *
 * Bindings are explicit (nothing binds itself from a static initialiser) and undone by closing the
 * returned handle.
 */
public final class OfferPolicies {

  /** A bound policy and the listener for its decisions. */
  public record Binding(OfferPolicy policy, Consumer<Decision> listener) {
    public Binding {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(listener, "listener");
    }
  }

  private static final Map<String, Binding> BOUND = new ConcurrentHashMap<>();

  private OfferPolicies() {}

  /** Binds {@code policy} under {@code name} until the returned handle is closed. */
  public static AutoCloseable bind(String name, OfferPolicy policy, Consumer<Decision> listener) {
    Binding b = new Binding(policy, listener);
    if (BOUND.putIfAbsent(name, b) != null) {
      throw new IllegalStateException("an OfferPolicy is already bound as '" + name + "'");
    }
    return () -> BOUND.remove(name, b);
  }

  /** The binding named {@code name}. */
  static Binding bound(String name) {
    Binding b = BOUND.get(name);
    if (b == null) {
      throw new IllegalArgumentException(
          "no OfferPolicy is bound as '"
              + name
              + "' in this process (bound: "
              + BOUND.keySet()
              + ")");
    }
    return b;
  }

  /**
   * A new {@link OfferPolicyFactory} if {@code className} names one (public no-argument
   * constructor), else null (the class is taken as a policy by {@link #instantiate}).
   */
  static OfferPolicyFactory factoryOrNull(String className) {
    Class<?> c;
    try {
      c = Class.forName(className.trim(), true, OfferPolicies.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null; // instantiate names the missing class
    }
    if (!OfferPolicyFactory.class.isAssignableFrom(c)) {
      return null;
    }
    try {
      return (OfferPolicyFactory) c.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          "cannot create OfferPolicyFactory "
              + className
              + " (it needs a public no-argument constructor): "
              + e,
          e);
    }
  }

  /** A new instance of the {@link OfferPolicy} class {@code className}. */
  static Binding instantiate(String className) {
    Class<?> c;
    try {
      c = Class.forName(className.trim(), true, OfferPolicies.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "OfferPolicy class " + className + " is not on the RM classpath", e);
    }
    if (!OfferPolicy.class.isAssignableFrom(c)) {
      throw new IllegalArgumentException(
          className + " does not implement " + OfferPolicy.class.getName());
    }
    try {
      return new Binding((OfferPolicy) c.getConstructor().newInstance(), d -> {});
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          "cannot create OfferPolicy "
              + className
              + " (it needs a public no-argument constructor): "
              + e,
          e);
    }
  }
}

package dev.rota.core.catalog;

import dev.rota.core.baseline.FewestRunningFirst;
import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.baseline.StaticCapacityPolicy;
import dev.rota.core.eunomia.Baselines;
import dev.rota.core.eunomia.EunomiaPolicy;
import dev.rota.core.hybrid.HybridCatalog;
import dev.rota.core.hybrid.MechanismFactory;
import dev.rota.core.hybrid.dice.DiceMechanism;
import dev.rota.core.hybrid.eirene.EireneMechanism;
import dev.rota.core.sim.Schedulers;
import dev.rota.core.sim.SimulationRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one list of the suite's simulated schedulers and hybrid mechanisms. A new system adds its
 * entries here (and nowhere else); the packages it lists know nothing of each other or of this
 * class, so the list is explicit and no registration depends on class-loading order.
 */
public final class Catalog {
  /** The hybrid mechanisms and the combinations the CLI lists. */
  public static final HybridCatalog HYBRID = hybrid();

  /** Every scheduler {@code rota simulate --scheduler} accepts. */
  public static final Schedulers SCHEDULERS = schedulers(HYBRID);

  private Catalog() {}

  private static HybridCatalog hybrid() {
    List<MechanismFactory> mechanisms = new ArrayList<>(DiceMechanism.factories());
    mechanisms.addAll(EireneMechanism.factories());
    List<String> combinations = new ArrayList<>(DiceMechanism.combinations());
    combinations.addAll(EireneMechanism.combinations());
    return new HybridCatalog(mechanisms, combinations);
  }

  /** The suite's schedulers with {@code hybrid} resolving hybrid names. */
  public static Schedulers schedulers(HybridCatalog hybrid) {
    List<SimulationRunner> runners = new ArrayList<>();
    runners.add(Schedulers.centralized(FifoPolicy.NAME, FifoPolicy::new));
    runners.add(Schedulers.centralized(StaticCapacityPolicy.NAME, StaticCapacityPolicy::new));
    runners.add(Schedulers.offers(FewestRunningFirst.NAME, FewestRunningFirst::new));
    runners.add(Schedulers.offers(EunomiaPolicy.NAME, EunomiaPolicy::new));
    runners.add(Schedulers.offers(Baselines.Tsf.NAME, Baselines.Tsf::new));
    runners.add(Schedulers.offers(Baselines.Choosy.NAME, Baselines.Choosy::new));
    runners.add(Schedulers.offers(Baselines.Drf.NAME, Baselines.Drf::new));
    runners.add(Schedulers.offers(Baselines.FairShare.NAME, Baselines.FairShare::new));
    for (String name : hybrid.names()) {
      runners.add(hybrid.runner(name));
    }
    return new Schedulers(
        runners, name -> name.contains("+") ? Optional.of(hybrid.runner(name)) : Optional.empty());
  }
}

package dev.rota.yarn.hybrid;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest;
import org.apache.hadoop.yarn.api.records.ResourceRequest;

/**
 * The hosts the router keeps out of each short application's opportunistic placement ({@link
 * ShortPlacement#hostsToAvoid}), carried to YARN's opportunistic allocator in the application's own
 * allocate call as blacklist additions and removals. YARN keeps an application's blacklist from
 * call to call, so this remembers, per attempt, which hosts Rota added: it removes only those
 * (never a host the ApplicationMaster blacklisted itself in the same call), and it remembers the
 * last container size the attempt asked for, the size a host must have room for.
 */
final class ShortBlacklist {

  private record State(Set<String> added, Resource ask) {}

  private final Map<ApplicationAttemptId, State> states = new ConcurrentHashMap<>();

  /**
   * The container size to find room for: the largest ANY ask of {@code request}, else the size
   * {@code attempt} asked for last, else null (nothing asked yet).
   */
  Resource askSize(ApplicationAttemptId attempt, AllocateRequest request) {
    Resource largest = null;
    for (ResourceRequest rr : request.getAskList()) {
      if (ResourceRequest.ANY.equals(rr.getResourceName())
          && rr.getNumContainers() > 0
          && rr.getCapability() != null
          && (largest == null
              || rr.getCapability().getMemorySize() > largest.getMemorySize()
              || rr.getCapability().getVirtualCores() > largest.getVirtualCores())) {
        largest = rr.getCapability();
      }
    }
    State s = states.get(attempt);
    return largest != null ? largest : s == null ? null : s.ask();
  }

  /**
   * Rewrites {@code request}'s blacklist so that, after YARN applies it, Rota's share of the
   * attempt's blacklist is exactly {@code avoid}; the ApplicationMaster's own additions and
   * removals are kept.
   *
   * @return the number of hosts avoided from now on
   */
  int apply(
      ApplicationAttemptId attempt, Set<String> avoid, Resource ask, AllocateRequest request) {
    State before = states.get(attempt);
    Set<String> previous = before == null ? Set.of() : before.added();
    ResourceBlacklistRequest am = request.getResourceBlacklistRequest();
    List<String> amAdditions =
        am == null || am.getBlacklistAdditions() == null ? List.of() : am.getBlacklistAdditions();
    List<String> amRemovals =
        am == null || am.getBlacklistRemovals() == null ? List.of() : am.getBlacklistRemovals();
    Set<String> additions = new LinkedHashSet<>(amAdditions);
    additions.addAll(avoid);
    Set<String> removals = new LinkedHashSet<>(amRemovals);
    for (String host : previous) {
      if (!avoid.contains(host) && !amAdditions.contains(host)) {
        removals.add(host);
      }
    }
    removals.removeAll(additions);
    if (am != null || !additions.isEmpty() || !removals.isEmpty()) {
      request.setResourceBlacklistRequest(
          ResourceBlacklistRequest.newInstance(
              new ArrayList<>(additions), new ArrayList<>(removals)));
    }
    states.put(attempt, new State(Set.copyOf(avoid), ask));
    return avoid.size();
  }

  /** Forgets every attempt of {@code app}. */
  void forget(ApplicationId app) {
    states.keySet().removeIf(a -> a.getApplicationId().equals(app));
  }

  /** Hosts Rota keeps out of {@code attempt}'s placement now (for tests and logs). */
  Set<String> avoided(ApplicationAttemptId attempt) {
    State s = states.get(attempt);
    return s == null ? Set.of() : s.added();
  }
}

package dev.rota.core.adaptive;

import java.util.List;
import java.util.Objects;

/**
 * What the tuner optimizes per tick: R containers for best-effort jobs and the groups.
 *
 * @param totalContainers R
 * @param groups the user groups, in output order
 */
public record ClusterState(int totalContainers, List<Group> groups) {

  public ClusterState {
    groups = List.copyOf(groups);
    if (totalContainers < 0) {
      throw new IllegalArgumentException("total containers must be >= 0, got " + totalContainers);
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (Group g : groups) {
      if (!names.add(g.state().name())) {
        throw new IllegalArgumentException("duplicate group name " + g.state().name());
      }
    }
  }

  /**
   * One group: its state, the search space (which fixes the scheduler kind) and its bounds.
   *
   * @param state jobs, queues and constraints
   * @param space the group-level search space
   * @param bounds r^Lower, r^Upper
   */
  public record Group(GroupState state, SearchSpace space, GroupBounds bounds) {

    public Group {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(space, "space");
      Objects.requireNonNull(bounds, "bounds");
      if (space.queues() != state.queues().size()) {
        throw new IllegalArgumentException(
            "group "
                + state.name()
                + ": search space "
                + space.description()
                + " has "
                + space.queues()
                + " queues, the group has "
                + state.queues().size());
      }
    }

    /** A group with the default bounds {@link GroupBounds#of(GroupState)}. */
    public static Group of(GroupState state, SearchSpace space) {
      return new Group(state, space, GroupBounds.of(state));
    }

    /** The scheduler kind of the group's search space. */
    public SchedulerKind kind() {
      return space.kind();
    }
  }
}

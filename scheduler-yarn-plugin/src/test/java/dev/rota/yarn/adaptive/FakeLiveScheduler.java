package dev.rota.yarn.adaptive;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A scheduler that loads capacities from the file on refresh, with scripted failures and a call
 * log.
 */
final class FakeLiveScheduler implements LiveScheduler {

  private final Path file;
  final Map<String, Double> live = new HashMap<>();
  Exception validateFailure;
  Exception refreshFailure; // thrown by the first refresh only
  boolean ignoreRefresh; // refresh "succeeds" but loads nothing (the RM reads another file)
  String missingQueue;
  int refreshes;
  int validations;

  FakeLiveScheduler(Path file) throws Exception {
    this.file = file;
    load();
  }

  private void load() throws Exception {
    CapacitySchedulerXml xml = CapacitySchedulerXml.read(file);
    xml.queues().forEach((path, q) -> live.put(path, q.capacity().orElse(100)));
  }

  @Override
  public boolean hasQueue(String path) {
    return live.containsKey(path) && !path.equals(missingQueue);
  }

  @Override
  public void validate(String candidateText) throws Exception {
    validations++;
    if (validateFailure != null) {
      throw validateFailure;
    }
  }

  @Override
  public void refresh() throws Exception {
    refreshes++;
    if (refreshFailure != null && refreshes == 1) {
      throw refreshFailure;
    }
    if (!ignoreRefresh) {
      load();
    }
  }

  @Override
  public double liveCapacity(String path) {
    return live.getOrDefault(path, Double.NaN);
  }
}

package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.rules.selfcheck.QueueCapacity;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ConfiguredQueuesTest {

  @Test
  void walksTheConfiguredTreeParentsFirst() {
    Configuration conf = new Configuration(false);
    conf.set("yarn.scheduler.capacity.root.queues", "prod, dev");
    conf.set("yarn.scheduler.capacity.root.prod.capacity", "70");
    conf.set("yarn.scheduler.capacity.root.prod.queues", "etl,adhoc");
    conf.set("yarn.scheduler.capacity.root.prod.etl.capacity", "2w");
    conf.set("yarn.scheduler.capacity.root.prod.adhoc.capacity", "1w");
    conf.set("yarn.scheduler.capacity.root.dev.capacity", "30");

    assertEquals(
        List.of(
            QueueCapacity.of("root", "", null),
            QueueCapacity.of("root.prod", "root", "70"),
            QueueCapacity.of("root.prod.etl", "root.prod", "2w"),
            QueueCapacity.of("root.prod.adhoc", "root.prod", "1w"),
            QueueCapacity.of("root.dev", "root", "30")),
        ConfiguredQueues.read(conf));
  }

  @Test
  void aQueueListingItsAncestorDoesNotLoop() {
    Configuration conf = new Configuration(false);
    conf.set("yarn.scheduler.capacity.root.queues", "a");
    conf.set("yarn.scheduler.capacity.root.a.queues", "a");

    assertEquals(3, ConfiguredQueues.read(conf).size());
  }
}

package dev.rota.yarn.adaptive;

import java.nio.file.Path;

/** Test inputs: the shipped conf/adaptive/capacity-scheduler.xml and small hand-written files. */
final class Fixtures {

  private Fixtures() {}

  static Path adaptiveConf() {
    return Path.of(System.getProperty("rota.root.dir", "..")).resolve("conf/adaptive");
  }

  /** Two groups a, b (60/40) with two queues each, comments and an unrelated property. */
  static final String TWO_GROUPS =
      """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- operator comment: keep me -->
            <configuration>
              <property>
                <name>yarn.scheduler.capacity.root.queues</name>
                <value>a,b</value>
              </property>
              <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>
              <property><name>yarn.scheduler.capacity.root.a.queues</name><value>a1,a2</value></property>
              <property><name>yarn.scheduler.capacity.root.a.a1.capacity</name><value>50</value></property>
              <property><name>yarn.scheduler.capacity.root.a.a1.maximum-capacity</name><value>55</value></property>
              <property><name>yarn.scheduler.capacity.root.a.a2.capacity</name><value>50</value></property>
              <!-- <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>99</value></property> -->
              <property>
                <name>yarn.scheduler.capacity.root.b.capacity</name>
                <value>40</value>
                <description>group b &amp; friends</description>
              </property>
              <property><name>yarn.scheduler.capacity.root.b.queues</name><value>b1,b2</value></property>
              <property><name>yarn.scheduler.capacity.root.b.b1.capacity</name><value>30</value></property>
              <property><name>yarn.scheduler.capacity.root.b.b2.capacity</name><value>70</value></property>
              <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>
            </configuration>
            """;
}

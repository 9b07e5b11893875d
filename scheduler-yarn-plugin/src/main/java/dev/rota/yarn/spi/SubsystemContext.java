package dev.rota.yarn.spi;

import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.util.Clock;

/**
 * What a {@link RotaSubsystem} gets from the ResourceManager when it starts.
 *
 * @param rmContext the RM's context (dispatcher, scheduler, applications)
 * @param rmConf the configuration the RM started with (yarn-site.xml)
 * @param clock the scheduler's clock: the only time a system may read
 */
public record SubsystemContext(RMContext rmContext, Configuration rmConf, Clock clock) {
  public SubsystemContext {
    Objects.requireNonNull(rmContext, "rmContext");
    Objects.requireNonNull(rmConf, "rmConf");
    Objects.requireNonNull(clock, "clock");
  }
}

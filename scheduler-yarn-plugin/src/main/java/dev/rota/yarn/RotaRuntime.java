package dev.rota.yarn;

import dev.rota.rules.RuleEngine;
import dev.rota.rules.RuleSource;
import dev.rota.rules.selfcheck.QueueCapacity;
import dev.rota.rules.selfcheck.SelfCheck;
import dev.rota.rules.selfcheck.SelfCheckFinding;
import dev.rota.rules.selfcheck.SelfCheckReport;
import dev.rota.rules.selfcheck.SelfCheckRules;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rota's state inside one scheduler instance, changed in two steps so that a bad configuration
 * never half-applies: {@link #plan(Configuration)} validates a candidate CapacityScheduler
 * configuration (Rota keys, rule compilation, self-check) without touching the live state, and
 * {@link #commit(Plan)} makes an accepted plan live once CapacityScheduler has applied the same
 * configuration.
 *
 * <p>Every decision is logged at INFO (problems at WARN), one line each. Thread-safety: all methods
 * are synchronized; start and refreshQueues run on different RM threads.
 */
public final class RotaRuntime implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RotaRuntime.class);

  /**
   * A validated candidate: settings, the rule engine to use (absent when the self-check is
   * disabled) and the self-check report for the candidate's queues.
   */
  public record Plan(
      RotaSettings settings, Optional<RuleEngine> engine, Optional<SelfCheckReport> selfCheck) {
    public Plan {
      Objects.requireNonNull(settings, "settings");
      Objects.requireNonNull(engine, "engine");
      Objects.requireNonNull(selfCheck, "selfCheck");
    }
  }

  private final String schedulerName;
  private final RotaSchedulerMetrics metrics;
  private final RuleEngineLoader loader;
  private Plan committed;
  private boolean closed;

  RotaRuntime(String schedulerName, RotaSchedulerMetrics metrics, RuleEngineLoader loader) {
    this.schedulerName = Objects.requireNonNull(schedulerName, "schedulerName");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.loader = Objects.requireNonNull(loader, "loader");
  }

  /**
   * Validates {@code csConf} (the CapacityScheduler view: yarn-site overlaid with
   * capacity-scheduler.xml).
   *
   * @throws InvalidRotaConfigurationException for an unknown Rota key or invalid value
   * @throws dev.rota.rules.RuleCompilationException if the rules do not compile
   * @throws SelfCheckFailedException if the self-check fails and fail-on-finding is set
   */
  public synchronized Plan plan(Configuration csConf) {
    RotaSettings settings = RotaConfiguration.from(csConf);
    LOG.info("Rota configuration accepted: {}", settings.describe());
    if (!settings.selfCheckEnabled()) {
      LOG.info(
          "Rota self-check disabled ({}=false): Drools rule engine not loaded",
          RotaConfiguration.KEY_SELF_CHECK_ENABLED);
      return new Plan(settings, Optional.empty(), Optional.empty());
    }
    RuleEngineLoader.Loaded loaded = loader.load(settings);
    RuleEngine engine = loaded.engine();
    if (loaded.compiled()) {
      LOG.info(
          "Rota rule engine compiled: {} rules {} from {} in {} ms",
          engine.ruleNames().size(),
          engine.ruleNames(),
          engine.describeSources(),
          engine.compileTime().toMillis());
    } else {
      LOG.info(
          "Rota rule engine reused: {} rules from {}",
          engine.ruleNames().size(),
          engine.describeSources());
    }
    List<QueueCapacity> queues = ConfiguredQueues.read(csConf);
    SelfCheckReport report = new SelfCheckRules(engine).run(new SelfCheck(schedulerName, queues));
    metrics.selfCheckRan(report.rulesFired(), report.warnings().size());
    logReport(report, queues, engine);
    if (!report.ran()) {
      throw new SelfCheckFailedException(
          "Rota self-check did not run: the rule set from "
              + settings.rulesOrigin()
              + " has no rule named '"
              + SelfCheckRules.RULE_RAN
              + "' (copy dev/rota/rules/self-check.drl from the"
              + " Rota jar into "
              + RotaConfiguration.KEY_RULES_DIR
              + ", or set "
              + RotaConfiguration.KEY_SELF_CHECK_ENABLED
              + "=false)");
    }
    if (settings.failOnFinding() && !report.warnings().isEmpty()) {
      throw new SelfCheckFailedException(
          "Rota self-check found "
              + report.warnings().size()
              + " problem(s) and "
              + RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING
              + "=true: "
              + report.warnings().stream()
                  .map(SelfCheckFinding::describe)
                  .collect(Collectors.joining("; ")));
    }
    return new Plan(settings, Optional.of(engine), Optional.of(report));
  }

  /** Makes {@code plan} live: call after CapacityScheduler applied the same configuration. */
  public synchronized void commit(Plan plan) {
    Objects.requireNonNull(plan, "plan");
    boolean first = committed == null;
    committed = plan;
    if (plan.engine().isPresent()) {
      RuleEngine engine = plan.engine().get();
      metrics.ruleBaseLive(engine.ruleNames().size(), engine.compileTime().toMillis());
    } else {
      metrics.noRuleBase();
    }
    if (!first) {
      metrics.reconfigured();
    }
    LOG.info(
        "Rota {} committed: rule engine {}",
        first ? "start-up configuration" : "refreshed configuration",
        plan.engine()
            .map(e -> "live with " + e.ruleNames().size() + " rules")
            .orElse("not loaded"));
  }

  /**
   * The committed state; {@link RotaSettings#DEFAULTS} and nothing else before the first commit.
   */
  public synchronized RotaStatus status() {
    if (committed == null) {
      return new RotaStatus(RotaSettings.DEFAULTS, List.of(), List.of(), Optional.empty());
    }
    List<String> names = committed.engine().map(RuleEngine::ruleNames).orElse(List.of());
    List<String> sources =
        committed
            .engine()
            .map(e -> e.sources().stream().map(RuleSource::origin).toList())
            .orElse(List.of());
    return new RotaStatus(committed.settings(), names, sources, committed.selfCheck());
  }

  /** The metrics source this runtime reports to. */
  public RotaSchedulerMetrics metrics() {
    return metrics;
  }

  /** Unregisters the metrics source; idempotent. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      metrics.unregister();
    }
  }

  private void logReport(SelfCheckReport report, List<QueueCapacity> queues, RuleEngine engine) {
    for (SelfCheckFinding warning : report.warnings()) {
      LOG.warn("Rota self-check problem {}", warning.describe());
    }
    String verdict =
        !report.ran()
            ? "DID NOT RUN"
            : report.passed() ? "PASSED" : "FOUND " + report.warnings().size() + " PROBLEM(S)";
    LOG.info(
        "Rota self-check {}: {} rule activation(s) fired {} over {} queues {} (rules from {})",
        verdict,
        report.rulesFired(),
        report.firedRules(),
        queues.size(),
        queues,
        engine.describeSources());
  }
}

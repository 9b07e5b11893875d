package dev.rota.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/rota}: the command-line entry to Rota's simulator, reproductions and demo. */
@Command(
    name = "rota",
    mixinStandardHelpOptions = true,
    version = "rota 0.1.0-SNAPSHOT",
    description = "Rota: research schedulers for YARN, simulated and real.",
    subcommands = {
      SimulateCommand.class,
      CompareCommand.class,
      ReproduceCommand.class,
      ReserveCommand.class,
      CheckConfCommand.class,
      StatusCommand.class,
      dev.rota.cli.cluster.ClusterCommand.class,
      dev.rota.cli.demo.DemoCommand.class,
      CommandLine.HelpCommand.class
    })
public final class RotaCli implements Runnable {
  /** Wall-clock start of the process's main, for whole-command timings. */
  public static final long START_NANOS = System.nanoTime();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line (also used by tests). */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new RotaCli());
    cl.setExecutionExceptionHandler(
        (ex, cmd, parseResult) -> {
          // expected user errors (bad trace, bad option value) get one clear line, not a stack
          // trace
          if (ex instanceof IllegalArgumentException
              || ex instanceof java.io.IOException
              || ex instanceof dev.rota.core.trace.TraceFormatException) {
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + describe(ex));
            return 2;
          }
          throw ex;
        });
    // a command-line mistake is one line naming it and where help is, not the whole usage
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine cmd = ex.getCommandLine();
          String path = cmd.getCommandSpec().qualifiedName();
          cmd.getErr().println(path + ": " + ex.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(ex, cmd.getErr());
          cmd.getErr().println("see '" + path + " --help'");
          return cmd.getCommandSpec().exitCodeOnInvalidInput();
        });
    cl.getSubcommands().get("simulate").getCommandSpec().usageMessage().footer(simulateFooter());
    return cl;
  }

  /**
   * What {@code rota simulate --help} lists after the options, from the catalogue itself: the
   * schedulers, the hybrid mechanisms, which options a hybrid scheduler needs, and every {@code
   * --set} key.
   */
  static String[] simulateFooter() {
    var hybrid = dev.rota.core.catalog.Catalog.HYBRID;
    java.util.List<String> lines = new java.util.ArrayList<>();
    lines.add("");
    lines.add(
        "Schedulers: "
            + String.join(
                ", ", new java.util.TreeSet<>(dev.rota.core.catalog.Catalog.SCHEDULERS.names()))
            + ".");
    lines.add(
        "Hybrid schedulers (sparrow, hawk, eagle) take mechanisms after +, e.g. eagle+dice: "
            + String.join(", ", hybrid.mechanisms())
            + ". They need --cutoff SECONDS (the short/long cutoff on a job's mean task"
            + " duration).");
    StringBuilder keys = new StringBuilder("--set keys of hybrid schedulers: ");
    java.util.List<String> base = new java.util.ArrayList<>();
    for (dev.rota.core.hybrid.HybridConfig.Key k : dev.rota.core.hybrid.HybridConfig.Key.values()) {
      base.add(k.key());
    }
    keys.append(String.join(", ", base)).append(".");
    lines.add(keys.toString());
    // mechanisms of one family share their keys: one line per family, keys without the prefix
    java.util.Map<java.util.Set<String>, java.util.List<String>> byKeys =
        new java.util.LinkedHashMap<>();
    for (String m : hybrid.mechanisms()) {
      java.util.Set<String> k = hybrid.settingKeys(m);
      if (!k.isEmpty()) {
        byKeys.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add("+" + m);
      }
    }
    byKeys.forEach(
        (k, ms) -> {
          String first = k.iterator().next();
          String prefix = first.contains(".") ? first.substring(0, first.indexOf('.') + 1) : "";
          java.util.List<String> shortKeys = new java.util.ArrayList<>();
          for (String key : k) {
            shortKeys.add(key.startsWith(prefix) ? key.substring(prefix.length()) : key);
          }
          lines.add(
              "  with "
                  + String.join(" or ", ms)
                  + ", keys "
                  + prefix
                  + "KEY for KEY in: "
                  + String.join(", ", shortKeys)
                  + ".");
        });
    lines.add("Each key's meaning and default: docs/simulator.md and docs/hybrid.md.");
    return lines.toArray(String[]::new);
  }

  static String describe(Exception ex) {
    if (ex instanceof java.nio.file.NoSuchFileException nf) {
      return "file not found: " + nf.getFile();
    }
    return ex.getMessage();
  }

  /** Seconds since {@link #START_NANOS}. */
  public static double elapsedSeconds() {
    return (System.nanoTime() - START_NANOS) / 1e9;
  }
}

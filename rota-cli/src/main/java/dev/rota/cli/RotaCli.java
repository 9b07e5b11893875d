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
            cmd.getErr().println("rota " + cmd.getCommandName() + ": " + describe(ex));
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
    return cl;
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

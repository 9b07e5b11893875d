package dev.rota.yarn.adaptive;

/**
 * A scheduler configuration file (capacity-scheduler.xml, fair-scheduler.xml) cannot be read, or a
 * change to it would be invalid. The message always names the file and, where there is one, the
 * element or property, so the operator can find the problem from the log line alone. Nothing was
 * written when this is thrown.
 */
public final class InvalidSchedulerFileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String file;

  public InvalidSchedulerFileException(String file, String problem) {
    super(file + " " + problem);
    this.file = file;
  }

  /** The file (as named in messages). */
  public String file() {
    return file;
  }
}

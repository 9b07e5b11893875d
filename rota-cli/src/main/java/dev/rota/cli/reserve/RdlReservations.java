package dev.rota.cli.reserve;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledRdl;
import dev.rota.core.reservation.rdl.FlatDefinition;
import dev.rota.core.reservation.rdl.FlatMapping;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.rdl.RdlIssue;
import dev.rota.core.reservation.rdl.RdlParser;
import dev.rota.core.reservation.rdl.RdlSyntaxException;
import dev.rota.yarn.reservation.RdlCarrier;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationListRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.records.ReservationAllocationState;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.ResourceAllocationRequest;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * The client side of nested RDL reservations, as {@code rota reserve} runs it (and the integration
 * test through the same code): parse and compile the RDL locally, build Hadoop's {@code
 * ReservationDefinition} carrying it ({@link RdlCarrier}), submit it with {@code
 * YarnClient.createReservation} and {@code submitReservation}, and read back what the
 * ResourceManager accepted.
 *
 * <p>Times in the RDL are plan steps counted from the arrival. The arrival is the first step
 * boundary at least {@code leadMs} after now (so the request reaches the RM before its window
 * opens); the deadline is the arrival plus the RDL's latest window end. The definition's stages are
 * the one-level form when the RDL has one ({@link FlatMapping#toFlat}); otherwise an {@code R_ANY}
 * summary with one stage per atom, which Hadoop's input validator accepts and Rota's agent ignores
 * (it plans the RDL).
 */
public final class RdlReservations {

  /**
   * The text of an RDL file: its bytes must be UTF-8 text (no NUL byte), else the error names the
   * file and the first bad byte's offset.
   */
  public static String readText(java.nio.file.Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = java.nio.file.Files.readAllBytes(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw e;
    } catch (IOException e) {
      throw new IOException("cannot read " + file + ": " + e, e);
    }
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        throw new IOException(
            file + " is not an RDL text file: byte " + i + " is NUL (a binary file?)");
      }
    }
    java.nio.charset.CharsetDecoder utf8 =
        java.nio.charset.StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
    java.nio.charset.CoderResult r = utf8.decode(in, out, true);
    if (r.isError()) {
      throw new IOException(
          file + " is not an RDL text file: byte " + in.position() + " is not UTF-8 text");
    }
    utf8.flush(out);
    return out.flip().toString();
  }

  /**
   * Checks a {@code HOST:PORT} ResourceManager address: a host name and a port in 1..65535, and the
   * host resolves (so that an unknown host fails at once instead of being retried).
   */
  public static void checkAddress(String address) {
    checkAddress(address, "--rm");
  }

  /**
   * {@link #checkAddress(String)} for an address from {@code source} (an option or a configuration
   * key, named in the error); the wildcard host 0.0.0.0 (a server's bind address, YARN's default
   * when nothing is configured) is refused as a target.
   */
  public static void checkAddress(String address, String source) {
    int colon = address.lastIndexOf(':');
    String host = colon < 0 ? address : address.substring(0, colon);
    String port = colon < 0 ? "" : address.substring(colon + 1);
    if (host.isBlank()
        || !port.matches("[0-9]{1,5}")
        || Integer.parseInt(port) == 0
        || Integer.parseInt(port) > 65535) {
      throw new IllegalArgumentException(
          source + " must be HOST:PORT with a port in 1..65535, not '" + address + "'");
    }
    if (host.equals("0.0.0.0")) {
      throw new IllegalArgumentException(
          source
              + " is "
              + address
              + ", a bind address, not a ResourceManager to connect to: give --rm HOST:PORT or"
              + " --conf DIR with yarn.resourcemanager.address");
    }
    try {
      java.net.InetAddress.getByName(host);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(source + " " + address + ": unknown host '" + host + "'");
    }
  }

  /**
   * Makes a client configuration give up on an unreachable ResourceManager after about {@code
   * timeoutMs}: Hadoop's client retries for {@code yarn.resourcemanager.connect.max-wait.ms} (15
   * minutes by default), each attempt itself retried by the IPC layer ({@code
   * ipc.client.connect.max.retries}, 10 by default). Here the IPC layer tries once and the RM proxy
   * retries every second until the timeout.
   */
  public static void failFast(org.apache.hadoop.conf.Configuration c, long timeoutMs) {
    c.setLong(
        org.apache.hadoop.yarn.conf.YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS,
        timeoutMs);
    c.setLong(
        org.apache.hadoop.yarn.conf.YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS,
        Math.min(1000, timeoutMs));
    c.setInt(
        org.apache.hadoop.fs.CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    c.setInt(
        org.apache.hadoop.fs.CommonConfigurationKeysPublic
            .IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        0);
    c.setInt(
        org.apache.hadoop.fs.CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY,
        (int) Math.min(timeoutMs, 20_000));
  }

  /** Bad RDL, found before anything is sent: names the sub-expression (or line and column). */
  public static final class RdlInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    RdlInputException(String message) {
      super(message);
    }
  }

  /**
   * What {@link #prepare} built: the RDL as parsed, its compiled form and the definition to submit.
   */
  public record Prepared(
      RdlExpression rdl,
      CompiledRdl compiled,
      ReservationDefinition definition,
      long stepMs,
      long arrivalStep) {}

  /** The RM's answer. */
  public sealed interface Outcome permits Accepted, Rejected {}

  /** Accepted: the reservation as the RM lists it. */
  public record Accepted(ReservationId id, ReservationAllocationState state) implements Outcome {}

  /** Rejected: the RM's reason (from Rota's agent or policy, or Hadoop's validator). */
  public record Rejected(ReservationId id, String reason) implements Outcome {}

  private final YarnClient yarn;

  /** {@code yarn} must be started; it is not closed here. */
  public RdlReservations(YarnClient yarn) {
    this.yarn = yarn;
  }

  /**
   * Parses and compiles {@code text} (from {@code source}, for messages) and builds its definition.
   *
   * @throws RdlInputException for malformed or impossible RDL
   */
  public static Prepared prepare(String text, String source, long stepMs, long nowMs, long leadMs) {
    if (stepMs < 1) {
      throw new IllegalArgumentException("the plan step must be at least 1 ms, got " + stepMs);
    }
    RdlExpression rdl;
    try {
      rdl = RdlParser.parse(text);
    } catch (RdlSyntaxException e) {
      throw new RdlInputException(source + ": " + e.getMessage());
    }
    CompileResult c = RdlCompiler.compile(rdl);
    if (c instanceof CompileResult.Invalid inv) {
      throw new RdlInputException(
          source
              + ": "
              + inv.errors().size()
              + " problem(s), nothing was sent:\n  "
              + inv.errors().stream().map(RdlIssue::toString).collect(Collectors.joining("\n  ")));
    }
    CompiledRdl compiled = ((CompileResult.Compiled) c).rdl();
    if (compiled.isEmpty()) {
      throw new RdlInputException(source + ": the RDL reserves nothing (every atom has w = 0)");
    }
    long arrivalStep = Math.floorDiv(nowMs + leadMs + stepMs - 1, stepMs);
    long length = compiled.latestEnd();
    long arrival = arrivalStep * stepMs;
    long deadline = (arrivalStep + length) * stepMs;
    ReservationRequests stages = stages(rdl, compiled, stepMs);
    ReservationDefinition d =
        ReservationDefinition.newInstance(
            arrival, deadline, stages, RdlCarrier.encode(rdl), "0", null);
    return new Prepared(rdl, compiled, d, stepMs, arrivalStep);
  }

  private static ReservationRequests stages(RdlExpression rdl, CompiledRdl compiled, long stepMs) {
    if (FlatMapping.toFlat(rdl, "") instanceof FlatMapping.Expressible<FlatDefinition> flat) {
      List<ReservationRequest> rs = new ArrayList<>();
      for (FlatDefinition.Stage s : flat.value().stages()) {
        rs.add(
            ReservationRequest.newInstance(
                hadoop(s.capability()),
                Math.toIntExact(s.numContainers()),
                Math.toIntExact(s.concurrency()),
                s.duration() * stepMs));
      }
      return ReservationRequests.newInstance(
          rs, ReservationRequestInterpreter.valueOf(flat.value().interpreter().name()));
    }
    List<ReservationRequest> rs = new ArrayList<>();
    for (CompiledAtom a : compiled.atoms()) {
      rs.add(
          ReservationRequest.newInstance(
              hadoop(a.bundle()), Math.toIntExact(a.h()), Math.toIntExact(a.g()), a.l() * stepMs));
    }
    return ReservationRequests.newInstance(rs, ReservationRequestInterpreter.R_ANY);
  }

  private static org.apache.hadoop.yarn.api.records.Resource hadoop(Resource r) {
    return org.apache.hadoop.yarn.api.records.Resource.newInstance(
        r.memoryMb(), Math.toIntExact(r.vcores()));
  }

  /**
   * The full path of {@code queue} ({@code dedicated} becomes {@code root.dedicated}), as the RM
   * reports it; {@code queue} itself when it already is a path or the RM does not know it (the RM's
   * reservation validator then names the problem). <b>Why:</b> Hadoop 3.5.0 keys the reservation
   * ACLs of a CapacityScheduler plan by the plan queue's full path and compares the queue name of a
   * request as given, so with {@code yarn.acl.reservation-enable} a request naming the leaf is
   * refused to everyone but the owner of an existing reservation (and a reservation submitted under
   * the leaf name cannot be administered by the queue's reservation administrators).
   */
  public String planPath(String queue) {
    if (queue.contains(".")) {
      return queue;
    }
    try {
      org.apache.hadoop.yarn.api.records.QueueInfo info = yarn.getQueueInfo(queue);
      String path = info == null ? null : info.getQueuePath();
      return path == null || path.isBlank() ? queue : path;
    } catch (IOException | YarnException e) {
      return queue;
    }
  }

  /** Asks the RM for a reservation id and submits {@code p} to {@code queue}. */
  public Outcome submit(Prepared p, String queue) throws IOException, YarnException {
    String plan = planPath(queue);
    ReservationId id = yarn.createReservation().getReservationId();
    try {
      yarn.submitReservation(ReservationSubmissionRequest.newInstance(p.definition(), plan, id));
    } catch (YarnException e) {
      return new Rejected(id, reason(e));
    }
    List<ReservationAllocationState> listed = list(plan, id.toString());
    if (listed.isEmpty()) {
      return new Rejected(
          id, "the RM accepted reservation " + id + " but does not list it in queue " + queue);
    }
    return new Accepted(id, listed.get(0));
  }

  /** The reservations of {@code queue} (all when {@code id} is empty), with their allocations. */
  public List<ReservationAllocationState> list(String queue, String id)
      throws IOException, YarnException {
    return yarn.listReservations(
            ReservationListRequest.newInstance(planPath(queue), id == null ? "" : id, true))
        .getReservationAllocationState();
  }

  /** The RM's message without the remote-exception wrapping. */
  public static String reason(YarnException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf("\n\tat ");
    m = (nl < 0 ? m : m.substring(0, nl)).strip();
    // the RM's exception class travels in front of its message: keep only the message
    return m.replaceFirst("^(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ", "");
  }

  /**
   * A reservation in a few lines: id, user, window, the RDL, the intervals Hadoop holds (seconds
   * from the arrival) and, when Rota placed it, every atom's leases in plan steps from the arrival.
   */
  public static String describe(ReservationAllocationState s, long stepMs) {
    ReservationDefinition d = s.getReservationDefinition();
    long arrival = d.getArrival();
    StringBuilder sb = new StringBuilder();
    sb.append(s.getReservationId())
        .append("  user ")
        .append(s.getUser())
        .append("  window ")
        .append(Instant.ofEpochMilli(arrival))
        .append(" .. ")
        .append(Instant.ofEpochMilli(d.getDeadline()))
        .append('\n');
    String name = RdlCarrier.withoutPlacement(d.getReservationName());
    sb.append("  ")
        .append(
            RdlCarrier.carriesRdl(name)
                ? "rdl  " + name.substring(RdlCarrier.RDL_PREFIX.length())
                : "name " + name)
        .append('\n');
    List<ResourceAllocationRequest> intervals = new ArrayList<>(s.getResourceAllocationRequests());
    intervals.sort((x, y) -> Long.compare(x.getStartTime(), y.getStartTime()));
    sb.append("  reserved (seconds from the arrival):");
    if (intervals.isEmpty()) {
      sb.append(" nothing");
    }
    for (ResourceAllocationRequest r : intervals) {
      sb.append(
          String.format(
              Locale.ROOT,
              " [%s, %s) %d MiB %d vcores;",
              secs(r.getStartTime() - arrival),
              secs(r.getEndTime() - arrival),
              r.getCapability().getMemorySize(),
              r.getCapability().getVirtualCores()));
    }
    sb.append('\n');
    RdlCarrier.placement(d.getReservationName())
        .ifPresent(
            pl -> {
              long a = Math.floorDiv(arrival + stepMs - 1, stepMs);
              for (Map.Entry<String, List<Block>> e : pl.blocks().entrySet()) {
                sb.append("  ")
                    .append(dev.rota.yarn.reservation.PlanConversion.userPaths(e.getKey()))
                    .append(':');
                for (Block b : e.getValue()) {
                  sb.append(" [")
                      .append(b.start() - a)
                      .append(", ")
                      .append(b.end() - a)
                      .append(") x ")
                      .append(b.bundles());
                }
                sb.append('\n');
              }
            });
    return sb.toString();
  }

  private static String secs(long ms) {
    return ms % 1000 == 0
        ? Long.toString(ms / 1000)
        : String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }
}

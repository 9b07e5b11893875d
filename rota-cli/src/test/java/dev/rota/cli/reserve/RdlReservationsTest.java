package dev.rota.cli.reserve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.RotaCli;
import dev.rota.yarn.reservation.RdlCarrier;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rota reserve}'s local half: parse, compile, build the definition; bad RDL never leaves the
 * client.
 */
class RdlReservationsTest {

  @Test
  void nestedRdlTravelsInTheNameWithAnAnySummaryAndAWindowFromTheNextStep() {
    String rdl =
        "window(order(all(atom(<1024,1>,1,2,10,20), atom(<1024,1>,1,1,10,10)), atom(<1024,1>,2,2,10,20)), 0, 30)";
    RdlReservations.Prepared p = RdlReservations.prepare(rdl, "t.rdl", 1000, 10_500, 2000);
    ReservationDefinition d = p.definition();
    assertEquals(13, p.arrivalStep(), "first whole step at least 2 s after 10.5 s");
    assertEquals(13_000, d.getArrival());
    assertEquals(43_000, d.getDeadline());
    assertTrue(RdlCarrier.carriesRdl(d.getReservationName()));
    assertEquals(ReservationRequestInterpreter.R_ANY, d.getReservationRequests().getInterpreter());
    assertEquals(3, d.getReservationRequests().getReservationResources().size());
    assertEquals(2, d.getReservationRequests().getReservationResources().get(2).getConcurrency());
  }

  @Test
  void oneLevelRdlAlsoCarriesItsHadoopStages() {
    String rdl = "window(order(atom(<2g,1>,1,4,5,20), atom(<1g,1>,2,2,3,6)), 0, 20)";
    ReservationDefinition d = RdlReservations.prepare(rdl, "t.rdl", 1000, 0, 0).definition();
    assertEquals(
        ReservationRequestInterpreter.R_ORDER, d.getReservationRequests().getInterpreter());
    assertEquals(4, d.getReservationRequests().getReservationResources().get(0).getNumContainers());
    assertEquals(5000, d.getReservationRequests().getReservationResources().get(0).getDuration());
    assertEquals(
        2048,
        d.getReservationRequests()
            .getReservationResources()
            .get(0)
            .getCapability()
            .getMemorySize());
  }

  @Test
  void badRdlNamesTheSubExpression() {
    RdlReservations.RdlInputException e =
        assertThrows(
            RdlReservations.RdlInputException.class,
            () ->
                RdlReservations.prepare(
                    "window(order(atom(<1g,1>,1,1,5,5), atom(<1g,1>,3,2,1,6)), 0, 20)",
                    "t.rdl",
                    1000,
                    0,
                    0));
    assertTrue(e.getMessage().contains("window.order[1].atom: g = 3 > h = 2"), e.getMessage());
    RdlReservations.RdlInputException unbounded =
        assertThrows(
            RdlReservations.RdlInputException.class,
            () -> RdlReservations.prepare("atom(<1g,1>,1,1,5,5)", "t.rdl", 1000, 0, 0));
    assertTrue(unbounded.getMessage().contains("not inside any window"), unbounded.getMessage());
  }

  @Test
  void theCommandExitsWith2BeforeContactingAnyResourceManager(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.rdl");
    Files.writeString(f, "window(atom(<1g,1>, 1, 4, 10, 36), 0, 5)\n");
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    int rc = cl.execute("reserve", f.toString(), "--queue", "dedicated", "--rm", "127.0.0.1:1");
    assertEquals(2, rc);
    assertTrue(err.toString().contains("rota reserve: " + f + ": "), err.toString());
    assertTrue(err.toString().contains("needs at least 10 steps"), err.toString());

    Files.writeString(f, "window(atom(<1g,1>, 1, 4, 10, 40)\n");
    err.getBuffer().setLength(0);
    assertEquals(
        2, cl.execute("reserve", f.toString(), "--queue", "dedicated", "--rm", "127.0.0.1:1"));
    assertTrue(err.toString().contains("line 2, column 1"), err.toString());
  }

  @Test
  void aClosedPortFailsWithinTheTimeoutNamingTheTarget(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("ok.rdl");
    Files.writeString(f, "window(atom(<1g,1>, 1, 1, 2, 2), 0, 10)\n");
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    long t0 = System.nanoTime();
    int rc =
        cl.execute(
            "reserve",
            f.toString(),
            "--queue",
            "dedicated",
            "--rm",
            "127.0.0.1:" + port,
            "--timeout",
            "3");
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(2, rc, err.toString());
    assertTrue(
        err.toString().contains("cannot reach the ResourceManager at 127.0.0.1:" + port),
        err.toString());
    // Hadoop's defaults retry for 15 minutes; three seconds of retries plus start-up, not that
    assertTrue(seconds < 30, "took " + seconds + " s");
  }

  @Test
  void aBadAddressOrUnknownHostIsRefusedBeforeConnecting(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("ok.rdl");
    Files.writeString(f, "window(atom(<1g,1>, 1, 1, 2, 2), 0, 10)\n");
    var cl = RotaCli.commandLine();
    for (String[] c :
        new String[][] {
          {"localhost", "must be HOST:PORT"},
          {"localhost:0", "port in 1..65535"},
          {":8032", "must be HOST:PORT"},
          {"localhost:99999", "port in 1..65535"},
          {"no-such-host.invalid:8032", "unknown host 'no-such-host.invalid'"},
          {"0.0.0.0:8032", "a bind address, not a ResourceManager to connect to"}
        }) {
      StringWriter err = new StringWriter();
      cl.setErr(new PrintWriter(err));
      assertEquals(
          2, cl.execute("reserve", f.toString(), "--queue", "dedicated", "--rm", c[0]), c[0]);
      assertTrue(err.toString().contains(c[1]), c[0] + ": " + err);
    }
  }

  @Test
  void aBinaryFileIsNamedAsNotText(@TempDir Path dir) throws Exception {
    Path bin = dir.resolve("x.rdl");
    Files.write(bin, new byte[] {'w', 'i', (byte) 0xff, (byte) 0xfe, 'x'});
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    assertEquals(
        2, cl.execute("reserve", bin.toString(), "--queue", "dedicated", "--rm", "127.0.0.1:1"));
    assertTrue(
        err.toString().contains(bin + " is not an RDL text file: byte 2 is not UTF-8 text"),
        err.toString());
    Files.write(bin, new byte[] {'a', 0, 'b'});
    err.getBuffer().setLength(0);
    assertEquals(
        2, cl.execute("reserve", bin.toString(), "--queue", "dedicated", "--rm", "127.0.0.1:1"));
    assertTrue(err.toString().contains("byte 1 is NUL"), err.toString());
  }
}

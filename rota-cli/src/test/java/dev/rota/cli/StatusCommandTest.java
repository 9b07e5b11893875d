package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** rota status on a /jmx answer as Hadoop's JMX servlet writes it. */
class StatusCommandTest {
  @Test
  void printsRotaBeansWithTheirOwnTagsAndSurvivesNaN() throws Exception {
    String jmx =
        "{\"beans\":[{\"name\":\"Hadoop:service=ResourceManager,name=RotaCoLocationMetrics\","
            + "\"modelerType\":\"RotaCoLocationMetrics\",\"tag.Context\":\"yarn\","
            + "\"tag.Hostname\":\"h\",\"tag.Queue\":\"default\",\"Admissions\":4,"
            + "\"Baseline\":NaN,\"tag.Context.1\":\"yarn\",\"tag.Partner.1\":\"DISK\"},"
            + "{\"name\":\"Hadoop:service=ResourceManager,name=QueueMetrics\",\"x\":1}]}";
    StringWriter out = new StringWriter();
    int rc = StatusCommand.print(StatusCommand.parse(jmx), "rm:8088", new PrintWriter(out, true));
    String text = out.toString();
    assertEquals(0, rc, text);
    assertTrue(text.startsWith("Rota in the ResourceManager at rm:8088 (1 source(s)):"), text);
    assertTrue(text.matches("(?s).*RotaCoLocationMetrics\\s+tag\\.Queue\\s+default\\b.*"), text);
    assertTrue(text.matches("(?s).*RotaCoLocationMetrics\\s+tag\\.Partner\\.1\\s+DISK\\b.*"), text);
    assertTrue(text.matches("(?s).*Admissions\\s+4\\b.*"), text);
    assertTrue(text.contains("Baseline"), text);
    assertTrue(!text.contains("tag.Context") && !text.contains("tag.Hostname"), text);
    assertTrue(!text.contains("QueueMetrics"), text);
  }
}

package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.junit.jupiter.api.Test;

class PatientAmrmClientTest {
  private final AllocateResponse answer =
      AllocateResponse.newInstance(
          7, List.of(), List.of(), List.of(), null, null, 1, null, List.of());
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger pauses = new AtomicInteger();

  @Test
  void anRmThatFailedWhileLeavingTheActiveStateIsAskedAgainUntilItAnswers() throws Exception {
    // the words HaFailoverIT's AM received from an RM going to standby mid-heartbeat
    YarnRuntimeException hiccup =
        new YarnRuntimeException(new InterruptedException("dispatcher stopping"));
    AllocateResponse got =
        PatientAmrmClient.patiently(
            () -> {
              int n = calls.incrementAndGet();
              if (n == 1) {
                throw hiccup;
              }
              if (n == 2) {
                throw new IOException("connection reset");
              }
              return answer;
            },
            5,
            pauses::incrementAndGet);
    assertSame(answer, got);
    assertEquals(3, calls.get());
    assertEquals(2, pauses.get());
  }

  @Test
  void theRmsVerdictOnTheAttemptIsPassedOnAtOnce() {
    ApplicationAttemptNotFoundException gone =
        new ApplicationAttemptNotFoundException("attempt appattempt_1_0001_000001 not found");
    ApplicationAttemptNotFoundException thrown =
        assertThrows(
            ApplicationAttemptNotFoundException.class,
            () ->
                PatientAmrmClient.patiently(
                    () -> {
                      calls.incrementAndGet();
                      throw gone;
                    },
                    5,
                    pauses::incrementAndGet));
    assertSame(gone, thrown);
    assertEquals(1, calls.get());
    assertEquals(0, pauses.get());
  }

  @Test
  void aFailureThatLastsIsPassedOnAfterTheLastAttempt() {
    assertThrows(
        YarnRuntimeException.class,
        () ->
            PatientAmrmClient.patiently(
                () -> {
                  throw new YarnRuntimeException("attempt " + calls.incrementAndGet());
                },
                4,
                pauses::incrementAndGet));
    assertEquals(4, calls.get());
    assertEquals(3, pauses.get());
  }

  @Test
  void anInterruptedPauseEndsTheRetriesAndKeepsTheInterrupt() {
    YarnRuntimeException thrown =
        assertThrows(
            YarnRuntimeException.class,
            () ->
                PatientAmrmClient.patiently(
                    () -> {
                      throw new YarnRuntimeException("attempt " + calls.incrementAndGet());
                    },
                    10,
                    () -> {
                      throw new InterruptedException();
                    }));
    assertEquals("attempt 1", thrown.getMessage());
    assertTrue(Thread.interrupted()); // clears the flag for the next test
  }
}

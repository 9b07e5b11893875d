package dev.rota.workload;

import java.io.IOException;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's AM-RM client, patient with a heartbeat the ResourceManager failed to answer for its own
 * reasons: the heartbeat is sent again, up to {@value #ATTEMPTS} times in all, {@link
 * WorkloadAppMaster#HEARTBEAT_MS} ms apart.
 *
 * <p>Why: {@code AMRMClientAsync} ends its heartbeat thread at the first failed {@code allocate},
 * and a job would fail for the RM's hiccup. One such hiccup is an RM leaving the active state while
 * it answers: the handler's dispatcher put is interrupted and the AM receives a {@code
 * YarnRuntimeException} (seen in {@code HaFailoverIT}). Failing over to the other RM is the RM
 * proxy's business; a failed call that reached an RM is this class's. Sending again is safe: {@link
 * AMRMClientImpl#allocate} keeps the asks, releases and updates of a call that got no answer for
 * the next one, and the response id moves only with an answer.
 *
 * <p>Transient: an {@link IOException} or a {@link YarnRuntimeException}. A {@link YarnException}
 * is the RM's verdict on the request (attempt unknown, invalid ask) and is passed on at once.
 */
final class PatientAmrmClient extends AMRMClientImpl<ContainerRequest> {
  /** Heartbeats sent for one {@code allocate} before its failure is passed on. */
  static final int ATTEMPTS = 40;

  private static final Logger LOG = LoggerFactory.getLogger(PatientAmrmClient.class);

  /** One heartbeat. */
  interface Call {
    AllocateResponse call() throws YarnException, IOException;
  }

  /** Waits between attempts. */
  interface Pause {
    void pause() throws InterruptedException;
  }

  @Override
  public AllocateResponse allocate(float progress) throws YarnException, IOException {
    return patiently(
        () -> super.allocate(progress),
        ATTEMPTS,
        () -> Thread.sleep(WorkloadAppMaster.HEARTBEAT_MS));
  }

  /**
   * Calls until an answer, a non-transient failure, or {@code attempts} transient failures (the
   * last one is thrown). An interrupted pause ends the retries with the failure in hand.
   */
  static AllocateResponse patiently(Call call, int attempts, Pause pause)
      throws YarnException, IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (IOException | YarnRuntimeException e) {
        if (attempt >= attempts) {
          LOG.error("heartbeat failed {} times; giving up", attempt);
          throw e;
        }
        LOG.warn(
            "heartbeat {} of {} failed; sending it again: {}", attempt, attempts, e.toString());
        try {
          pause.pause();
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}

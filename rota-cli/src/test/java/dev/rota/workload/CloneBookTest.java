package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.jupiter.api.Test;

class CloneBookTest {
  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1, 1), 1);
  private static final StagePlan.Task T0 = new StagePlan.Task(0, 0, 1000);
  private static final StagePlan.Task T1 = new StagePlan.Task(0, 1, 9000);

  private static ContainerId c(int n) {
    return ContainerId.newContainerId(ATTEMPT, n);
  }

  @Test
  void oneClonePerRunningTaskEarliestFirstAndTheFirstFinishWins() {
    CloneBook book = new CloneBook();
    book.launched(c(2), T0, false);
    book.launched(c(3), T1, false);

    assertEquals(Optional.of(T0), book.cloneCandidate(0));
    book.launched(c(4), T0, true);
    assertEquals(Optional.of(T1), book.cloneCandidate(0));
    book.launched(c(5), T1, true);
    assertEquals(Optional.empty(), book.cloneCandidate(0), "one clone per task");
    assertEquals(Optional.empty(), book.cloneCandidate(1));

    CloneBook.Completion won = book.completed(c(5), true);
    assertEquals(CloneBook.Outcome.CLONE_WON, won.outcome());
    assertEquals(Optional.of(c(3)), won.stopTwin(), "the slower primary is stopped");
    assertEquals(CloneBook.Outcome.LOST, book.completed(c(3), false).outcome());

    assertEquals(CloneBook.Outcome.PRIMARY_WON, book.completed(c(2), true).outcome());
    assertEquals(
        CloneBook.Outcome.LOST, book.completed(c(4), true).outcome(), "a late success is ignored");
    assertEquals(2, book.clonesLaunched());
    assertEquals(1, book.cloneWins());
    assertNull(book.completed(c(99), true), "unknown containers are not the book's");
  }

  @Test
  void aFailedCopyIsIgnoredWhileItsTwinRunsAndReportedOtherwise() {
    CloneBook book = new CloneBook();
    book.launched(c(2), T0, false);
    book.launched(c(3), T0, true);

    assertEquals(CloneBook.Outcome.FAILED_TWIN_RUNS, book.completed(c(2), false).outcome());
    assertEquals(CloneBook.Outcome.FAILED, book.completed(c(3), false).outcome());
    assertTrue(
        book.cloneCandidate(0).isEmpty(),
        "a task is cloned at most once, even after its copies fail");
  }
}

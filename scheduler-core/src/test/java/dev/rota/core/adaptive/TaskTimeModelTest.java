package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TaskTimeModelTest {

  @Test
  void recoversAKnownLogLinearModel() {
    // truth: seconds = 2 · (1 + MB/task)^0.8 · tasks^0.1 · (1.5 if grep), with multiplicative noise
    Random rnd = new Random(2);
    List<TaskTimeModel.Profile> profiles = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      String type = rnd.nextBoolean() ? "sort" : "grep";
      double mb = Math.exp(rnd.nextDouble() * 10);
      int tasks = 1 + rnd.nextInt(200);
      double s =
          2
              * Math.pow(1 + mb / tasks, 0.8)
              * Math.pow(tasks, 0.1)
              * (type.equals("grep") ? 1.5 : 1.0)
              * Math.exp(rnd.nextGaussian() * 0.05);
      profiles.add(new TaskTimeModel.Profile(type, mb, tasks, s));
    }
    TaskTimeModel model = TaskTimeModel.fit(profiles);
    double[] b = model.coefficients();
    String first = model.jobTypes().get(0);
    double grepEffect = first.equals("grep") ? -b[3] : b[3];
    assertEquals(0.8, b[1], 0.02);
    assertEquals(0.1, b[2], 0.02);
    assertEquals(Math.log(1.5), grepEffect, 0.03);
    assertTrue(model.rSquared() > 0.99);
    double predicted = model.predict("sort", 1000, 10);
    double truth = 2 * Math.pow(1 + 100, 0.8) * Math.pow(10, 0.1);
    assertEquals(truth, predicted, truth * 0.05);
  }

  @Test
  void tooFewProfilesNameTheNeed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TaskTimeModel.fit(List.of(new TaskTimeModel.Profile("sort", 10, 2, 3))));
    assertTrue(e.getMessage().contains("at least 4 job profiles"), e.getMessage());
  }
}

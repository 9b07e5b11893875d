package dev.rota.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.rules.selfcheck.SelfCheckRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuleEngineTest {

  private static final String URGENT_DRL =
      """
            package test.urgent;
            import dev.rota.rules.Ticket;
            rule "urgent ticket"
            when
                $t : Ticket( priority > 5 )
            then
                insert( "urgent:" + $t.getPriority() );
            end
            """;

  @Test
  void bundledRulesCompileFromTheClasspath() {
    RuleEngine engine = RuleEngine.fromClasspath();

    // other bundled rule files (e.g. AdaptiveConfig's) may sit beside the self-check
    assertTrue(
        engine
            .ruleNames()
            .containsAll(
                List.of(
                    SelfCheckRules.RULE_PERCENT_RANGE,
                    SelfCheckRules.RULE_UNPARSEABLE,
                    SelfCheckRules.RULE_CHILDREN_SUM,
                    SelfCheckRules.RULE_RAN)),
        engine.ruleNames()::toString);
    assertTrue(
        engine.sources().stream()
            .map(RuleSource::origin)
            .toList()
            .contains("classpath:dev/rota/rules/self-check.drl"),
        engine::describeSources);
    assertEquals(engine.ruleNames().stream().sorted().toList(), engine.ruleNames());
  }

  @Test
  void firesAConstraintRuleOncePerMatchAndReturnsInsertedFacts() {
    RuleEngine engine =
        RuleEngine.compile(List.of(new RuleSource("inline:urgent.drl", URGENT_DRL)));

    FiringResult result = engine.fire(List.of(new Ticket(9), new Ticket(1), new Ticket(7)));

    assertEquals(List.of("urgent ticket", "urgent ticket"), result.firedRules());
    assertEquals(
        List.of("urgent:7", "urgent:9"),
        result.factsOfType(String.class).stream().sorted().toList());
    assertEquals(3, result.factsOfType(Ticket.class).size());
  }

  @Test
  void eachFiringStartsFromAnEmptySession() {
    RuleEngine engine =
        RuleEngine.compile(List.of(new RuleSource("inline:urgent.drl", URGENT_DRL)));

    engine.fire(List.of(new Ticket(9)));
    FiringResult second = engine.fire(List.of(new Ticket(1)));

    assertEquals(0, second.firedCount());
    assertEquals(List.of(), second.factsOfType(String.class));
  }

  @Test
  void aSessionKeepsItsFactsBetweenFirings() {
    RuleEngine engine =
        RuleEngine.compile(List.of(new RuleSource("inline:urgent.drl", URGENT_DRL)));
    Ticket nine = new Ticket(9);

    try (RuleEngine.Session session = engine.openSession()) {
      session.insert(nine);
      assertEquals(1, session.fire(10));
      session.insert(new Ticket(1));
      assertEquals(0, session.fire(10));
      session.update(nine); // a changed fact is matched again
      assertEquals(1, session.fire(10));
      assertEquals(List.of("urgent:9", "urgent:9"), session.factsOfType(String.class));
      session.delete(nine);
      assertEquals(1, session.factsOfType(Ticket.class).size());
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> session.update(nine));
      assertTrue(e.getMessage().contains("not in this session's working memory"), e.getMessage());
    }
  }

  @Test
  void aSessionStopsALoopingRuleSet() {
    String looping =
        """
                package test.loop;
                import dev.rota.rules.Ticket;
                rule "again"
                when
                    $t : Ticket()
                then
                    update( $t );
                end
                """;
    RuleEngine engine = RuleEngine.compile(List.of(new RuleSource("inline:loop.drl", looping)));

    try (RuleEngine.Session session = engine.openSession()) {
      session.insert(new Ticket(1));
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> session.fire(50));
      assertTrue(e.getMessage().contains("did not settle within 50 activations"), e.getMessage());
    }
  }

  @Test
  void malformedDrlNamesTheFileTheLineAndTheError() {
    String broken =
        """
                package test.broken;
                rule "missing then"
                when
                    String( length > 3 )
                    insert( "x" );
                end
                """;

    RuleCompilationException e =
        assertThrows(
            RuleCompilationException.class,
            () ->
                RuleEngine.compile(
                    List.of(
                        new RuleSource("inline:good.drl", URGENT_DRL),
                        new RuleSource("/etc/rota/rules/broken.drl", broken))));

    assertTrue(
        e.getMessage().startsWith("Drools rule compilation failed in /etc/rota/rules/broken.drl:"),
        e.getMessage());
    assertFalse(e.problems().isEmpty());
    RuleProblem first = e.problems().get(0);
    assertEquals("/etc/rota/rules/broken.drl", first.origin());
    assertTrue(
        first.line() >= 4 && first.line() <= 6, "line " + first.line() + " in " + e.getMessage());
    assertTrue(
        e.getMessage().contains("/etc/rota/rules/broken.drl:" + first.line() + ": "),
        e.getMessage());
  }

  @Test
  void unknownFactTypeIsACompileErrorNamingTheFile() {
    String drl =
        """
                package test.unknown;
                rule "needs a missing class"
                when
                    NoSuchFact( size > 1 )
                then
                end
                """;

    RuleCompilationException e =
        assertThrows(
            RuleCompilationException.class,
            () -> RuleEngine.compile(List.of(new RuleSource("inline:unknown.drl", drl))));

    assertTrue(e.getMessage().contains("inline:unknown.drl"), e.getMessage());
    assertTrue(e.getMessage().contains("NoSuchFact"), e.getMessage());
  }

  @Test
  void compilesEveryDrlFileOfAnOperatorDirectoryInNameOrder(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("b-urgent.drl"), URGENT_DRL);
    Files.writeString(
        dir.resolve("a-low.drl"),
        URGENT_DRL
            .replace("test.urgent", "test.low")
            .replace("\"urgent ticket\"", "\"low ticket\"")
            .replace("priority > 5", "priority <= 5"));
    Files.writeString(dir.resolve("notes.txt"), "not a rule file");

    RuleEngine engine = RuleEngine.fromDirectory(dir);

    assertEquals(List.of("low ticket", "urgent ticket"), engine.ruleNames());
    assertEquals(
        List.of(dir.resolve("a-low.drl").toString(), dir.resolve("b-urgent.drl").toString()),
        engine.sources().stream().map(RuleSource::origin).toList());
    assertEquals(List.of("low ticket"), engine.fire(List.of(new Ticket(2))).firedRules());
  }

  @Test
  void directoryWithoutDrlFilesIsRejectedWithItsPath(@TempDir Path dir) {
    RuleCompilationException e =
        assertThrows(RuleCompilationException.class, () -> RuleEngine.fromDirectory(dir));

    assertEquals("Rule directory " + dir + " contains no *.drl file", e.getMessage());
  }

  @Test
  void missingDirectoryIsRejectedWithItsPath(@TempDir Path dir) {
    Path missing = dir.resolve("nope");

    RuleCompilationException e =
        assertThrows(RuleCompilationException.class, () -> RuleEngine.fromDirectory(missing));

    assertEquals(
        "Rule directory " + missing + " does not exist or is not a directory", e.getMessage());
  }

  @Test
  void aRuleLoopIsStoppedWithAClearError() {
    String looping =
        """
                package test.loop;
                rule "forever"
                when
                    $n : Integer()
                then
                    insert( Integer.valueOf( $n + 1 ) );
                end
                """;
    RuleEngine engine = RuleEngine.compile(List.of(new RuleSource("inline:loop.drl", looping)));

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> engine.fire(List.of(0)));

    assertTrue(
        e.getMessage().contains("did not settle within " + RuleEngine.DEFAULT_MAX_FIRINGS),
        e.getMessage());
    assertTrue(e.getMessage().contains("inline:loop.drl"), e.getMessage());
  }

  @Test
  void compilationUsesItsOwnClassLoaderWhateverTheCallersContextLoader() throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // an empty loader that sees only the JDK: KIE service discovery must not depend on it
    thread.setContextClassLoader(new java.net.URLClassLoader(new java.net.URL[0], null));
    try {
      RuleEngine engine =
          RuleEngine.compile(List.of(new RuleSource("inline:urgent.drl", URGENT_DRL)));
      assertEquals(1, engine.fire(List.of(new Ticket(8))).firedCount());
    } finally {
      thread.setContextClassLoader(previous);
    }
    assertEquals(previous, thread.getContextClassLoader());
  }
}

package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * The demo's table names every algorithm's parameters (ftrl, kt and freegrad had an empty cell).
 */
class DemoCommandTest {

  @Test
  void everyAlgorithmsParametersAreNamed() {
    for (String name : AlgorithmSpec.NAMES) {
      String p = DemoCommand.describe(AlgorithmSpec.of(name));
      assertFalse(p.isBlank(), name + ": empty parameters column");
      assertTrue(p.contains("="), name + ": " + p);
    }
    assertEquals("alpha=0.5, beta=1, l1=0, l2=0", DemoCommand.describe(AlgorithmSpec.of("ftrl")));
    assertEquals("eps=1, Lg=1", DemoCommand.describe(AlgorithmSpec.of("kt")));
    assertEquals("eps=1", DemoCommand.describe(AlgorithmSpec.of("freegrad")));
  }

  @Test
  void theDemoTablesRowsCarryTheirParameters() {
    CliRun r = CliRun.line("demo --n 200");
    assertEquals(0, r.code(), r.err());
    List<String> rows = r.out().lines().toList();
    for (String name : List.of("ftrl", "kt", "freegrad")) {
      String row =
          rows.stream()
              .filter(l -> l.startsWith(name + " "))
              .findFirst()
              .orElseThrow(() -> new AssertionError(name + ": no row in\n" + r.out()));
      assertTrue(row.contains(DemoCommand.describe(AlgorithmSpec.of(name))), name + ": " + row);
    }
  }
}

package org.onlinekernels.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * Every benchmark id the kernel report keys on, in its kernel list and in the committed {@code
 * bench-report/results.csv} it re-renders, names a benchmark the suite still has: {@code
 * Class.method}, and for {@code RuleBench} a rule in the parameter list of that method's state.
 */
class ReportIdsTest {
  /** Why {@code id} names no benchmark of the suite, or null when it names one. */
  static String broken(String id) {
    String[] classAndRest = id.split("\\.", 2);
    String[] methodAndRule = classAndRest[1].split(":", 2);
    Method m;
    try {
      Class<?> c = Class.forName("org.onlinekernels.bench." + classAndRest[0]);
      m =
          List.of(c.getMethods()).stream()
              .filter(x -> x.getName().equals(methodAndRule[0]))
              .filter(x -> x.isAnnotationPresent(Benchmark.class))
              .findFirst()
              .orElse(null);
    } catch (ClassNotFoundException e) {
      return id + ": no class " + classAndRest[0];
    }
    if (m == null) return id + ": no @Benchmark method " + methodAndRule[0];
    if (methodAndRule.length == 1) return null;
    for (var f : m.getParameterTypes()[0].getFields()) {
      Param p = f.getAnnotation(Param.class);
      if (p != null && f.getName().endsWith("ule") && List.of(p.value()).contains(methodAndRule[1]))
        return null;
    }
    return id + ": rule " + methodAndRule[1] + " is in no parameter list of " + m.getName();
  }

  @Test
  void kernelListNamesBenchmarksOfTheSuite() {
    List<String> bad = new ArrayList<>();
    for (ReportWriter.Kernel k : ReportWriter.KERNELS) {
      if (broken(k.bench()) != null) bad.add(broken(k.bench()));
    }
    assertTrue(bad.isEmpty(), String.join("; ", bad));
  }

  @Test
  void committedResultsNameBenchmarksOfTheSuite() throws IOException {
    Path csv = Path.of("..", "bench-report", "results.csv");
    TreeSet<String> bad = new TreeSet<>();
    for (String line : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
      String id = Row.parse(line).bench();
      if (broken(id) != null) bad.add(broken(id));
    }
    assertTrue(bad.isEmpty(), String.join("; ", bad));
  }
}

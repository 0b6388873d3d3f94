package org.onlinekernels.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.testkit.KernelCheck;

/**
 * The test kit's classes (the {@code testkit} jar) refer to the JDK, the library and jqwik only:
 * compiled among the test sources, they could reach JUnit, the benchmarks or the property suites,
 * which a kit user does not have.
 */
class TestkitDependenciesTest {

  @Test
  void theKitUsesTheLibraryAndJqwikOnly() throws IOException, URISyntaxException {
    Path kit =
        Path.of(KernelCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path library =
        Path.of(
            AbstractOptimizer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path dir = kit.resolve("org/onlinekernels/testkit");
    Set<String> foreign = new TreeSet<>();
    List<Path> classes;
    try (Stream<Path> s = Files.list(dir)) {
      classes = s.filter(p -> p.toString().endsWith(".class")).toList();
    }
    assertFalse(classes.isEmpty(), "no kit classes in " + dir);
    for (Path p : classes) {
      ClassModel model = ClassFile.of().parse(p);
      for (PoolEntry e : model.constantPool()) {
        if (e instanceof ClassEntry c) {
          String name = c.asInternalName().replaceFirst("^\\[+L?", "").replaceFirst(";$", "");
          boolean ok =
              name.startsWith("java/")
                  || name.startsWith("net/jqwik/api/")
                  || name.startsWith("org/onlinekernels/testkit/")
                  || name.startsWith("org/onlinekernels/")
                      && Files.exists(library.resolve(name + ".class"))
                  || name.length() == 1; // a primitive array's element type
          if (!ok) {
            foreign.add(p.getFileName() + " -> " + name);
          }
        }
      }
    }
    assertEquals(
        Set.of(),
        foreign,
        "kit classes referring to something outside the JDK, the library and jqwik's API");
  }
}

package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.rules.adagrad.AdaGradKernel;
import org.onlinekernels.rules.dfeg.DfegKernel;

/** The provider's choice, its fallback warning and the forcing property, each in a fresh JVM. */
@Tag("long")
class KernelProviderTest {

  record Run(int exit, String out, String err) {}

  static Run java(boolean withModule, String... props) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (withModule) {
      cmd.add("--add-modules");
      cmd.add("jdk.incubator.vector");
    }
    cmd.addAll(List.of(props));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ProviderProbe.class.getName());
    Process p = new ProcessBuilder(cmd).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Run(p.waitFor(), out, err);
  }

  @Test
  void withTheModuleTheVectorKernelsAreChosenSilently() throws Exception {
    Run r = java(true);
    assertEquals(0, r.exit(), r.err());
    assertEquals("vector", r.out());
    assertTrue(!r.err().contains("falls back"), r.err());
  }

  @Test
  void withoutTheModuleTheScalarKernelsAreChosenWithOneWarningNamingTheFlag() throws Exception {
    Run r = java(false);
    assertEquals(0, r.exit(), r.err());
    assertEquals("scalar", r.out());
    assertTrue(r.err().contains("--add-modules jdk.incubator.vector"), r.err());
    assertEquals(1, r.err().split("falls back", -1).length - 1, "exactly one warning: " + r.err());
  }

  @Test
  void thePropertyForcesScalarSilently() throws Exception {
    Run r = java(true, "-D" + KernelProvider.PROPERTY + "=scalar");
    assertEquals("scalar", r.out());
    assertTrue(!r.err().contains("falls back"), r.err());
  }

  @Test
  void forcingVectorWithoutTheModuleFailsLoudly() throws Exception {
    Run r = java(false, "-D" + KernelProvider.PROPERTY + "=vector");
    assertNotEquals(0, r.exit());
    assertTrue(r.err().contains("--add-modules jdk.incubator.vector"), r.err());
  }

  @Test
  void aBadValueIsRejectedWithTheValidOnes() throws Exception {
    Run r = java(true, "-D" + KernelProvider.PROPERTY + "=fast");
    assertNotEquals(0, r.exit());
    assertTrue(r.err().contains("auto, vector or scalar"), r.err());
  }

  @Test
  void bothImplementationsAreReachableInThisJvm() {
    assertEquals("vector", KernelProvider.vector().name());
    assertEquals("scalar", KernelProvider.scalar().name());
    for (ElementType t : ElementType.values()) {
      assertEquals(t, AdaGradKernel.of(KernelProvider.vector(), t).elementType());
      assertEquals(t, DfegKernel.of(KernelProvider.scalar(), t).elementType());
    }
  }
}

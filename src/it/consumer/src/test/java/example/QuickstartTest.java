package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/** The published library as a user's build sees it. */
class QuickstartTest {
  @Test
  void learnsOnTheVectorKernels() {
    assertEquals("vector", KernelProvider.get().name(), "--add-modules jdk.incubator.vector is on the argLine");
    double loss = Quickstart.meanProgressiveLoss(20_000);
    // The zero model's logistic loss is ln 2 = 0.693; untuned ScInOL2 learns this problem.
    assertTrue(loss < 0.5, "mean progressive loss " + loss);
  }

  @Test
  void jarHasTheStableModuleNameAndNoRequirementsBeyondTheJdk() throws Exception {
    Path jar = Path.of(ScInOL2Optimizer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(jar.getFileName().toString().matches("online-kernels-.*\\.jar"), jar.toString());
    Set<ModuleReference> found = ModuleFinder.of(jar).findAll();
    assertEquals(1, found.size());
    ModuleDescriptor m = found.iterator().next().descriptor();
    assertEquals("org.onlinekernels", m.name());
    assertTrue(m.isAutomatic(), "named by Automatic-Module-Name, no module-info (docs/USING.md: Packaging)");
  }

  @Test
  void libraryJarCarriesNeitherTheCommandLineNorTheExperiments() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("org.onlinekernels.cli.Main"));
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName("org.onlinekernels.experiments.ScInOLSynthetic"));
  }
}

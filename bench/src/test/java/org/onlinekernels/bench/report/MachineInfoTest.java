package org.onlinekernels.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MachineInfo#program}, the one search for a program (the C compiler, Vowpal Wabbit): found
 * on the {@code PATH} or by its path, and only as an executable regular file.
 */
class MachineInfoTest {
  @Test
  void aProgramIsFoundOnThePathOrByItsPathAndOnlyAsAnExecutableFile(@TempDir Path dir)
      throws IOException {
    Path sh = MachineInfo.program("sh").orElseThrow(() -> new AssertionError("no sh on the PATH"));
    assertEquals("sh", sh.getFileName().toString());
    assertTrue(Files.isExecutable(sh), sh + " is not executable");
    assertEquals(Optional.of(sh), MachineInfo.program(sh.toString()), "sh by its path");
    assertEquals(Optional.empty(), MachineInfo.program("no-such-program-here"));
    Path plain = Files.writeString(dir.resolve("plain"), "not a program\n");
    assertEquals(Optional.empty(), MachineInfo.program(plain.toString()), "a file not executable");
    Path folder = Files.createDirectory(dir.resolve("folder"));
    assertTrue(Files.isExecutable(folder), "the test's folder is searchable");
    assertEquals(Optional.empty(), MachineInfo.program(folder.toString()), "a folder");
  }
}

package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Crash-safe writes (issue 12, items 1 and 13). */
class AtomicFilesTest {
  @TempDir Path dir;

  private List<Path> listing() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  @Test
  void aCrashBeforeTheRenameLeavesThePreviousContentAndNoTemporary() throws IOException {
    Path f = dir.resolve("m.model");
    AtomicFiles.write(f, new byte[] {1, 2, 3});
    assertThrows(
        IllegalStateException.class,
        () ->
            AtomicFiles.write(
                f,
                new byte[] {9},
                () -> {
                  throw new IllegalStateException("simulated crash");
                }));
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(f));
    assertEquals(List.of(f), listing());
  }

  @Test
  void aTargetNameOfMaximalLengthWorks() throws IOException {
    Path f = dir.resolve("m".repeat(250));
    AtomicFiles.write(f, new byte[] {7});
    assertArrayEquals(new byte[] {7}, Files.readAllBytes(f));
  }

  @Test
  void errorsNameTheTargetAndTheReasonNeverTheTemporary() throws IOException {
    Path missing = dir.resolve("no/such/m.model");
    IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(missing, new byte[1]));
    assertEquals("cannot write " + missing + ": no such file or directory", e.getMessage());
    e = assertThrows(IOException.class, () -> AtomicFiles.checkWritable(missing));
    assertEquals(
        "cannot write " + missing + ": no such directory " + missing.getParent(), e.getMessage());
    e = assertThrows(IOException.class, () -> AtomicFiles.write(dir, new byte[1]));
    assertEquals("cannot write " + dir + ": it is a directory", e.getMessage());
    Path ro = Files.createDirectory(dir.resolve("ro"));
    assertTrue(ro.toFile().setWritable(false));
    try {
      if (!Files.isWritable(ro)) { // root may write anyway
        Path f = ro.resolve("m.model");
        e = assertThrows(IOException.class, () -> AtomicFiles.checkWritable(f));
        assertEquals("cannot write " + f + ": permission denied", e.getMessage());
        e = assertThrows(IOException.class, () -> AtomicFiles.write(f, new byte[1]));
        assertEquals("cannot write " + f + ": permission denied", e.getMessage());
        assertFalse(e.getMessage().contains(".tmp"));
      }
    } finally {
      ro.toFile().setWritable(true);
    }
  }

  @Test
  void abandonedTemporariesAreRemovedButFreshOnesAreNot() throws IOException {
    Path old = Files.write(dir.resolve(".okw-123.tmp"), new byte[] {1});
    Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    Path fresh = Files.write(dir.resolve(".okw-456.tmp"), new byte[] {1});
    Path unrelated = Files.write(dir.resolve("keep.tmp"), new byte[] {1});
    Path f = dir.resolve("m.model");
    AtomicFiles.write(f, new byte[] {5});
    assertEquals(
        Stream.of(fresh, unrelated, f).sorted().toList(),
        listing(),
        "only the old unlocked temporary goes");
  }

  @Test
  void concurrentWritersLeaveOneCompleteFile() throws Exception {
    Path f = dir.resolve("m.model");
    byte[][] contents = new byte[4][];
    for (int k = 0; k < contents.length; k++) {
      contents[k] = new byte[20_000 + 1000 * k];
      Arrays.fill(contents[k], (byte) k);
    }
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < contents.length; k++) {
      byte[] c = contents[k];
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int r = 0; r < 30; r++) {
                        AtomicFiles.write(f, c);
                      }
                    } catch (Throwable t) {
                      failure.set(t);
                    }
                  }));
    }
    boolean sawComplete = true;
    while (threads.stream().anyMatch(Thread::isAlive)) {
      if (Files.exists(f)) {
        byte[] got = Files.readAllBytes(f);
        sawComplete &= Arrays.stream(contents).anyMatch(c -> Arrays.equals(c, got));
      }
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(null, failure.get());
    assertTrue(sawComplete, "a reader saw a mixture or a partial file");
    byte[] last = Files.readAllBytes(f);
    assertTrue(Arrays.stream(contents).anyMatch(c -> Arrays.equals(c, last)));
    assertEquals(List.of(f), listing());
  }
}

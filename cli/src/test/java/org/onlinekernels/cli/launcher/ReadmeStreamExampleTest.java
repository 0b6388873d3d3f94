package org.onlinekernels.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The README's first command-line example, as written there, run through the launcher: it trains a
 * stream of generated Vowpal Wabbit text larger than the heap it gives the JVM (issue #35: the
 * front page shows that {@code train} streams). Takes about ten seconds of two processes.
 */
@Tag("long")
class ReadmeStreamExampleTest {
  /** The README's command-line section's first command: its lines up to the launcher's call. */
  static String firstCommand(String readme) {
    int section = readme.indexOf("\n## The command line\n");
    assertTrue(section >= 0, "the README has no command-line section");
    int block = readme.indexOf("\n```\n", section);
    List<String> lines = new ArrayList<>();
    for (String l : readme.substring(block + 5).split("\n")) {
      assertTrue(!l.equals("```"), "the first block runs no bin/online-kernels: " + lines);
      lines.add(l);
      if (l.contains("bin/online-kernels")) {
        break;
      }
    }
    return String.join("\n", lines);
  }

  @Test
  void theReadmesFirstCommandLineExampleTrainsAStreamLargerThanTheHeap() throws IOException {
    Path project =
        Path.of(System.getProperty("onlinekernels.home", "..")).toAbsolutePath().normalize();
    String command = firstCommand(Files.readString(project.resolve("README.md")));
    Matcher heap = Pattern.compile("ONLINE_KERNELS_JAVA_OPTS=-Xmx(\\d+)m ").matcher(command);
    assertTrue(heap.find(), "the example bounds the heap: " + command);
    long heapBytes = Long.parseLong(heap.group(1)) << 20;
    LauncherHome h = LauncherHome.shared();
    var env = LauncherHome.plainEnvironment();
    // The command as written, with a tee into a byte count between the text and train: one run
    // of the generator both feeds train and measures what train streamed (no second run only to
    // count it). The count is read from a fifo by a background wc that the script waits for.
    int pipe = command.lastIndexOf('|');
    Path count = Files.createTempFile("readme-stream", ".bytes");
    Path fifo = count.resolveSibling(count.getFileName() + ".fifo");
    String counted =
        String.format(
            "mkfifo '%s' && { wc -c < '%s' > '%s' & }%n%s | tee '%s' |%s%nrc=$?; wait; exit $rc",
            fifo, fifo, count, command.substring(0, pipe), fifo, command.substring(pipe + 1));
    LauncherHome.Call c;
    long textBytes;
    try {
      c = h.shell(h.home, env, counted, 300);
      textBytes = Long.parseLong(Files.readString(count).strip());
    } finally {
      Files.deleteIfExists(fifo);
      Files.deleteIfExists(count);
    }
    assertTrue(textBytes > heapBytes, textBytes + " bytes of text, heap " + heapBytes);
    assertEquals(0, c.code(), c.show());
    assertEquals("", c.err(), c.show());
    assertTrue(c.out().contains("1000000") || c.out().contains("1,000,000"), c.show());
  }
}

package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Outputs that are not regular files (finding B1 of issue #41): {@code --model}, {@code
 * --save-state} and {@code --invert-hash} onto a device, a FIFO or a socket replaced it with a
 * regular file and exited 0 (as root, {@code train --save-state /dev/full} replaced {@code
 * /dev/full}); onto a symbolic link they replaced the link. A socket file stands for every special
 * file here: a test cannot risk a device.
 */
class SpecialOutputFilesTest {
  @TempDir Path dir;

  private Path data() throws IOException {
    return Files.writeString(dir.resolve("d.svm"), "1 1:1 3:0.5\n-1 2:1\n1 1:0.5\n-1 2:1 3:1\n");
  }

  private static boolean isOther(Path p) throws IOException {
    return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
  }

  @Test
  void aModelStateOrReadableModelOntoASocketIsRefusedBeforeTraining() throws IOException {
    Path data = data();
    Path state = dir.resolve("s.okst");
    assertEquals(0, CliRun.line("train --data " + data + " --save-state " + state).code());
    Path socket = dir.resolve("out.sock");
    try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.bind(UnixDomainSocketAddress.of(socket));
      for (String flag : new String[] {"--model", "--save-state", "--invert-hash"}) {
        CliRun.line("train --data " + data + " " + flag + " " + socket)
            .assertError(1, "cannot write " + socket + ": it is a socket, not a regular file");
        assertTrue(isOther(socket), flag + " replaced the socket");
      }
      CliRun.line("serve --initial " + state + " --learn --port 0 --save-state " + socket)
          .assertError(1, "cannot write " + socket + ": it is a socket, not a regular file");
      assertTrue(isOther(socket), "serve replaced the socket");
    }
  }

  @Test
  void aModelOrStateThroughASymbolicLinkReplacesTheFileItLeadsTo() throws IOException {
    Path data = data();
    Path real = Files.createDirectory(dir.resolve("models"));
    Path modelLink = Files.createSymbolicLink(dir.resolve("m.model"), Path.of("models/v1.model"));
    Path stateLink = Files.createSymbolicLink(dir.resolve("s.okst"), real.resolve("v1.okst"));
    Files.writeString(real.resolve("v1.model"), "old");
    CliRun r =
        CliRun.line(
            "train --data " + data + " --model " + modelLink + " --save-state " + stateLink);
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.isSymbolicLink(modelLink) && Files.isSymbolicLink(stateLink));
    assertEquals(3, LinearModel.load(real.resolve("v1.model")).dimension());
    assertTrue(TrainingState.isStateFile(real.resolve("v1.okst")));
  }

  /** Files written through, not replaced, may be devices: they keep working. */
  @Test
  void predictionsAndProgressiveOutputGoThroughADevice() throws IOException {
    Path dev = Path.of("/dev/null");
    assumeTrue(Files.exists(dev) && isOther(dev), "no /dev/null device here");
    Path data = data();
    Path model = dir.resolve("m.model");
    CliRun t =
        CliRun.line("train --data " + data + " --model " + model + " --progressive-out " + dev);
    assertEquals(0, t.code(), t.err());
    CliRun p = CliRun.line("predict --model " + model + " --data " + data + " --out " + dev);
    assertEquals(0, p.code(), p.err());
    assertTrue(isOther(dev));
    assertArrayEquals(new byte[0], Files.readAllBytes(dev));
  }
}

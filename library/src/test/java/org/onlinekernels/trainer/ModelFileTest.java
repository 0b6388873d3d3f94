package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Model files: exact round trip, and every truncation or damaged byte refused (issue 12, item 1).
 */
class ModelFileTest {
  @TempDir Path dir;

  static LinearModel model(ElementType type) {
    double[][] w = {{0.25, -1.5, 3e-7, 12345.678}, {-0.0, 1, 2, -3}};
    if (type == ElementType.FLOAT) {
      for (double[] row : w) {
        for (int i = 0; i < row.length; i++) {
          row[i] = (float) row[i];
        }
      }
    }
    return new LinearModel(
        AlgorithmSpec.parse("adagrad", java.util.List.of("eta=0.5")), type, Loss.LOGISTIC, true, w);
  }

  @Test
  void roundTripIsExactAndEndsWithTheChecksum() throws IOException {
    for (ElementType type : ElementType.values()) {
      Path f = dir.resolve(type + ".model");
      LinearModel m = model(type);
      m.save(f);
      LinearModel back = LinearModel.load(f);
      for (int k = 0; k < m.outputs(); k++) {
        assertArrayEquals(m.weights()[k], back.weights()[k]);
      }
      String text = Files.readString(f);
      assertTrue(text.startsWith("online-kernels-model 2\n"), text);
      assertTrue(text.matches("(?s).*\ncrc32c [0-9a-f]{8}\n"), text);
    }
  }

  @Test
  void everyTruncationIsRefused() throws IOException {
    Path f = dir.resolve("m.model");
    model(ElementType.DOUBLE).save(f);
    byte[] good = Files.readAllBytes(f);
    Path cut = dir.resolve("cut.model");
    for (int len = 0; len < good.length; len++) {
      Files.write(cut, Arrays.copyOf(good, len));
      int l = len;
      LinearModel.ModelFormatException e =
          assertThrows(
              LinearModel.ModelFormatException.class,
              () -> LinearModel.load(cut),
              () -> "length " + l);
      assertTrue(e.getMessage().startsWith(cut.toString() + ":"), e.getMessage());
    }
  }

  @Test
  void everyChangedByteIsRefused() throws IOException {
    Path f = dir.resolve("m.model");
    model(ElementType.FLOAT).save(f);
    byte[] good = Files.readAllBytes(f);
    Path bad = dir.resolve("bad.model");
    // A changed digit, a flipped sign, any other byte: CRC32C catches every error within 32 bits.
    for (int i = 0; i < good.length; i++) {
      for (int bit : new int[] {0, 2, 5}) {
        byte[] b = good.clone();
        b[i] ^= (byte) (1 << bit);
        Files.write(bad, b);
        int at = i;
        assertThrows(
            LinearModel.ModelFormatException.class,
            () -> LinearModel.load(bad),
            () -> "byte " + at);
      }
    }
  }

  @Test
  void aChangedWeightIsReportedAsAChecksumMismatch() throws IOException {
    Path f = dir.resolve("m.model");
    model(ElementType.DOUBLE).save(f);
    String text = Files.readString(f).replace("w 0.25 ", "w -0.25 ");
    Files.writeString(f, text);
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(f));
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
  }

  @Test
  void versionOneAndBinaryFilesAreRefusedClearly() throws IOException {
    Path v1 = dir.resolve("v1.model");
    Files.writeString(
        v1,
        "online-kernels-model 1\nalgorithm scinol2\nparams\ntype float\nloss logistic\nd 1\n"
            + "outputs 1\nclasses binary\nw 1.0\n");
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(v1));
    assertEquals(
        v1
            + ":1: has model format version 1; this library reads version 2 (version 1 had no checksum):"
            + " train the model again",
        e.getMessage());
    Path binary = dir.resolve("bin.model");
    Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0x80, '\n'});
    e = assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(binary));
    assertTrue(e.getMessage().contains(":1: not an online-kernels model"), e.getMessage());
  }

  @Test
  void aFileWrittenByHandWithTheRightChecksumIsParsedAsBefore() throws IOException {
    String body =
        "online-kernels-model 2\nalgorithm scinol2\nparams\ntype float\nloss logistic\nd 2\n"
            + "outputs 1\nclasses binary\nw 1.0\n";
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    Path f = dir.resolve("hand.model");
    Files.writeString(f, body + String.format("crc32c %08x\n", crc.getValue()));
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(f));
    assertEquals(f + ":9: expected 'w' and 2 numbers", e.getMessage());
  }
}

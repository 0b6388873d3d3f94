package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.SparseDataset;

/** {@link DataFiles}: a file read by path, every failure one line naming the file. */
class DataFilesLibSvmTest {
  @TempDir Path dir;

  @Test
  void readsAFileWithAtLeastTheGivenDimension() throws IOException {
    Path f = Files.writeString(dir.resolve("a.svm"), "+1 1:2 3:1\n-1 2:1\n");
    SparseDataset d = DataFiles.readLibSvm(f, 5);
    assertEquals(2, d.size());
    assertEquals(5, d.dimension());
  }

  @Test
  void eachFailureIsOneLineNamingTheFile() throws IOException {
    Path missing = dir.resolve("missing.svm");
    assertEquals(
        "cannot read " + missing + ": no such file",
        assertThrows(DataFileException.class, () -> DataFiles.readLibSvm(missing, 0)).getMessage());
    assertEquals(
        "cannot read " + dir + ": it is a directory",
        assertThrows(DataFileException.class, () -> DataFiles.readLibSvm(dir, 0)).getMessage());
    Path bad = Files.writeString(dir.resolve("bad.svm"), "+1 3:1 2:1\n");
    DataFileException e = assertThrows(DataFileException.class, () -> DataFiles.readLibSvm(bad, 0));
    assertEquals(bad + ":1: ", e.getMessage().substring(0, bad.toString().length() + 4));
    assertInstanceOf(LibSvmFormatException.class, e.getCause());
    byte[] gz = GzipInputTest.gzip("+1 1:1\n");
    Path corrupt = Files.write(dir.resolve("c.svm.gz"), Arrays.copyOf(gz, gz.length - 3));
    e = assertThrows(DataFileException.class, () -> DataFiles.readLibSvm(corrupt, 0));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertEquals(true, e.getMessage().contains(corrupt.toString()), e.getMessage());
    Path wide = Files.writeString(dir.resolve("wide.svm"), "+1 9:1\n");
    e =
        assertThrows(
            DataFileException.class,
            () ->
                DataFiles.readLibSvm(
                    wide, 0, LibSvmReader.Limits.NONE.withMaxDimension(4, " (at most 4)")));
    assertEquals(wide + ":1: feature index 9 exceeds 4 (at most 4)", e.getMessage());
  }
}

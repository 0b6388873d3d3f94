package org.onlinekernels.spark;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Lays rows out as a file stream source's input: one parquet file per micro-batch, named {@code
 * <k>.parquet} and dated one minute apart in {@code k}, so that a query reading the folder with
 * {@code maxFilesPerTrigger} 1 sees them as batches {@code 0, 1, ...} in that order. For the
 * streaming tests and the streaming figures of docs/spark/README.md (lab/'s {@code SparkScaling}).
 */
public final class ParquetBatches {
  private ParquetBatches() {}

  /**
   * Writes {@code rows} as batch file {@code k} of the source folder {@code in}, staging it under
   * {@code tmp} first (Spark writes a folder of part files; the one part file is moved in, so the
   * source never sees a half-written file).
   *
   * @return the batch as a data set
   */
  public static Dataset<Row> write(
      SparkSession spark, List<Row> rows, StructType schema, int k, Path in, Path tmp)
      throws IOException {
    Dataset<Row> batch = spark.createDataFrame(rows, schema);
    Path staged = tmp.resolve("staged-" + k + "-" + in.getFileName());
    batch.coalesce(1).write().parquet(staged.toString());
    Files.createDirectories(in);
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(staged, "part-*.parquet")) {
      for (Path p : ds) {
        Path dst = Files.move(p, in.resolve(k + ".parquet"));
        Files.setLastModifiedTime(dst, FileTime.fromMillis(1_000_000_000_000L + 60_000L * k));
      }
    }
    return batch;
  }
}

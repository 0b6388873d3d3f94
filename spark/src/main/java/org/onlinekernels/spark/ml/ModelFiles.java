package org.onlinekernels.spark.ml;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The model file inside a saved model's directory, on any file system Spark reaches (local, HDFS,
 * object stores): written and read through a local temporary file by {@link LinearModel}'s own
 * {@code save} and {@code load}, so the file is the one the command line's {@code predict} reads.
 */
final class ModelFiles {
  /** The model file's name in the directory. */
  static final String FILE = "online-kernels.model";

  private ModelFiles() {}

  static void write(LinearModel model, String dir, SparkSession spark) throws IOException {
    java.nio.file.Path tmp = Files.createTempFile("online-kernels", ".model");
    try {
      model.save(tmp);
      Path dst = new Path(dir, FILE);
      FileSystem fs = dst.getFileSystem(spark.sparkContext().hadoopConfiguration());
      fs.copyFromLocalFile(false, true, new Path(tmp.toUri()), dst);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static LinearModel read(String dir, SparkSession spark) throws IOException {
    java.nio.file.Path tmp = Files.createTempFile("online-kernels", ".model");
    try {
      Path src = new Path(dir, FILE);
      FileSystem fs = src.getFileSystem(spark.sparkContext().hadoopConfiguration());
      fs.copyToLocalFile(false, src, new Path(tmp.toUri()), true);
      return LinearModel.load(tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}

package org.onlinekernels.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipException;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.DataFileException;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.io.LibSvmReader;

/**
 * How {@code train}, {@code predict} and {@code serve} read data: {@code --format libsvm|vw}
 * (default: {@code vw} for names ending in {@code .vw} or {@code .vw.gz}, else {@code libsvm}), and
 * for Vowpal Wabbit text the hashing options {@code --bits B} (dimension {@code 2^B}), {@code
 * --hash signed|unsigned} and the namespace options ({@link Namespaces}).
 *
 * @param format {@code null} to decide by the file name
 * @param bits hash bits, or 0 when not given
 * @param signed signed hashing
 * @param namespaces dropped namespaces and interactions
 */
record InputFormat(String format, int bits, boolean signed, Namespaces namespaces) {
  static final List<String> FORMATS = List.of("libsvm", "vw");

  /** The options of the input format, for {@link Options#parse}. */
  static final List<String> OPTIONS =
      List.of("--format", "--bits", "--hash", "--interactions", "--ignore", "--keep");

  /** The options of {@code o}. */
  static InputFormat parse(Options o) throws UsageException {
    String f = o.get("--format");
    if (f != null && !FORMATS.contains(f)) {
      throw new UsageException(
          "--format must be libsvm or vw, got '" + f + "'" + DidYouMean.hint(f, FORMATS));
    }
    int bits = 0;
    if (o.has("--bits")) {
      bits = o.positiveInt("--bits", VwReader.DEFAULT_BITS);
      if (bits > VwReader.MAX_BITS) {
        throw new UsageException("--bits must be 1.." + VwReader.MAX_BITS + ", got " + bits);
      }
    }
    String h = o.get("--hash");
    if (h != null && !h.equals("signed") && !h.equals("unsigned")) {
      throw new UsageException(
          "--hash must be signed or unsigned, got '"
              + h
              + "'"
              + DidYouMean.hint(h, List.of("signed", "unsigned")));
    }
    Namespaces ns = Namespaces.parse(o.all("--interactions"), o.get("--ignore"), o.get("--keep"));
    if ("libsvm".equals(f) && (bits != 0 || h != null || ns.any())) {
      throw new UsageException(vwOnlyFlag(o) + " applies to --format vw only");
    }
    return new InputFormat(f, bits, !"unsigned".equals(h), ns);
  }

  /** The first Vowpal Wabbit option given in {@code o}. */
  private static String vwOnlyFlag(Options o) {
    for (String flag : OPTIONS.subList(1, OPTIONS.size())) {
      if (o.has(flag)) {
        return flag;
      }
    }
    return "--bits";
  }

  /**
   * The arguments with VW's short interaction flag {@code -q ab} spelt {@code --interactions ab},
   * so that both are one option.
   */
  static String[] aliases(String[] args) {
    String[] a = args.clone();
    for (int i = 0; i < a.length; i++) {
      if (a[i].equals("-q")) {
        a[i] = "--interactions";
      } else if (a[i].startsWith("-q") && a[i].length() > 2 && !a[i].startsWith("--")) {
        a[i] = "--interactions=" + a[i].substring(2);
      }
    }
    return a;
  }

  /** Whether {@code file} is read as Vowpal Wabbit text. */
  boolean isVw(Path file) {
    if (format != null) {
      return format.equals("vw");
    }
    String n =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".vw") || n.endsWith(".vw.gz");
  }

  /** The same format with {@code bits} hash bits. */
  InputFormat withBits(int b) {
    return new InputFormat(format, b, signed, namespaces);
  }

  /**
   * Reads {@code file}; a VW file with {@code 2^bits} features ({@code bitsIfUnset} when {@code
   * --bits} was not given), a LIBSVM file with at least {@code minDimension}.
   */
  SparseDataset read(Path file, int minDimension, int bitsIfUnset)
      throws Main.Failure, UsageException {
    return read(file, minDimension, bitsIfUnset, LibSvmReader.Limits.NONE, null);
  }

  /**
   * As {@link #read(Path, int, int)}, within {@code limits}: values and line lengths of both
   * formats, indices of LIBSVM files (hashed files are bounded by their bits); {@code names}, if
   * not null, receives every VW entry with its feature name.
   */
  SparseDataset read(
      Path file,
      int minDimension,
      int bitsIfUnset,
      LibSvmReader.Limits limits,
      VwRow.NameSink names)
      throws Main.Failure, UsageException {
    if (!isVw(file)) {
      if (bits != 0 || !signed || namespaces.any()) {
        throw new UsageException(
            (namespaces.any() ? "--interactions, --ignore and --keep" : "--bits and --hash")
                + " apply to Vowpal Wabbit files (--format vw or a .vw name), not to "
                + file);
      }
      return readLibSvm(file, minDimension, limits);
    }
    try {
      if (Files.isDirectory(file)) {
        throw new Main.Failure("cannot read " + file + ": it is a directory");
      }
      int b = bits != 0 ? bits : bitsIfUnset;
      return VwReader.read(file, b, new VwRow(b, signed, namespaces, names), limits);
    } catch (VwReader.FormatException | ZipException e) {
      throw new Main.Failure(e.getMessage());
    } catch (NoSuchFileException e) {
      throw new Main.Failure("cannot read " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new Main.Failure("cannot read " + file + ": permission denied");
    } catch (IOException e) {
      throw new Main.Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
  }

  /** Reads a LIBSVM file within {@code limits}; a failure is one line naming the file. */
  static SparseDataset readLibSvm(Path file, int minDimension, LibSvmReader.Limits limits)
      throws Main.Failure {
    try {
      return DataFiles.readLibSvm(file, minDimension, limits);
    } catch (DataFileException e) {
      throw new Main.Failure(e.getMessage());
    }
  }

  /**
   * The hash bits a model of dimension {@code d} was trained with, or 0 if {@code d} is no power of
   * two.
   */
  static int bitsOf(int d) {
    return Integer.bitCount(d) == 1 ? Integer.numberOfTrailingZeros(d) : 0;
  }
}

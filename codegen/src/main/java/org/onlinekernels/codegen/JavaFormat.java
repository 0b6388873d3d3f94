package org.onlinekernels.codegen;

import com.google.googlejavaformat.java.Formatter;
import com.google.googlejavaformat.java.FormatterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Generated Java as the project formats its own (google-java-format, the formatter Spotless runs):
 * lines within 100 columns, however long an argument list or a blended lane expression grows. The
 * templates give the code's shape; this gives its layout. It needs the JDK compiler's internals
 * ({@code --add-exports jdk.compiler/com.sun.tools.javac.*=ALL-UNNAMED}, in the library's build).
 */
final class JavaFormat {
  private JavaFormat() {}

  private static final Formatter FORMATTER = new Formatter();

  /** {@code source} formatted. */
  static String format(String source) {
    try {
      return FORMATTER.formatSourceAndFixImports(source);
    } catch (FormatterException e) {
      throw new GeneratorException(
          "generated Java does not parse: " + e.getMessage() + "\n" + source);
    }
  }

  /**
   * Writes {@code raw} formatted to {@code target}, formatting only when {@code raw} differs from
   * what the file was last written from (its SHA-256 beside it, in {@code .<name>.sha256}): an
   * unchanged rule costs its build no formatter time.
   */
  static void write(Path target, String raw) throws IOException {
    String hash = sha256(raw);
    Path stamp = target.resolveSibling("." + target.getFileName() + ".sha256");
    if (Files.exists(target)
        && Files.exists(stamp)
        && Files.readString(stamp, StandardCharsets.UTF_8).equals(hash)) {
      return;
    }
    GeneratedFiles.write(target, format(raw));
    GeneratedFiles.write(stamp, hash);
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

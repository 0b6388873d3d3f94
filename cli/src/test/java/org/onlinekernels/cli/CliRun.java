package org.onlinekernels.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One in-process run of the command line: exit code, stdout and stderr. */
record CliRun(int code, String out, String err) {
  static CliRun of(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        Main.run(
            args,
            new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8));
    return new CliRun(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  /** Splits {@code line} at spaces. */
  static CliRun line(String line) {
    return of(line.split(" "));
  }

  /** The value of a top-level or nested JSON number field {@code "name":V} after {@code from}. */
  double json(String from, String name) {
    int i = out.indexOf(from);
    int j = out.indexOf("\"" + name + "\":", Math.max(0, i));
    if (i < 0 || j < 0) {
      throw new AssertionError("no " + from + " ... " + name + " in " + out);
    }
    int s = j + name.length() + 3;
    while (s < out.length() && out.charAt(s) == ' ') {
      s++;
    }
    int e = s;
    while (e < out.length() && "0123456789.-+eE".indexOf(out.charAt(e)) >= 0) {
      e++;
    }
    return Double.parseDouble(out.substring(s, e));
  }

  /** Asserts a usage or file error: the code and one line starting with {@code error: } + text. */
  CliRun assertError(int expectedCode, String text) {
    if (code != expectedCode
        || !err.startsWith("error: " + text)
        || err.lines().count() != 1
        || !out.isEmpty()) {
      throw new AssertionError(
          "expected exit "
              + expectedCode
              + " and one line 'error: "
              + text
              + "...', got exit "
              + code
              + ", stderr: "
              + err
              + ", stdout: "
              + out);
    }
    return this;
  }
}

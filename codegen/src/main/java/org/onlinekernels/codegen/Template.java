package org.onlinekernels.codegen;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A text block of generated code with holes, {@code ${name}}, so that the generator's source shows
 * the shape of what it writes:
 *
 * <pre>
 * Template.fill("""
 *     static ${t} sum(${t}[] c) {
 *       ${body}
 *     }
 *     """, "t", "float", "body", body)
 * </pre>
 *
 * A hole alone on its line takes a value of any number of lines, each indented as the hole was; a
 * line holding only such a hole is dropped when its value is empty. A hole within a line takes one
 * line. Every hole must be given and every value used: a misspelt name fails the generator, not the
 * output.
 */
final class Template {
  private Template() {}

  private static final Pattern HOLE = Pattern.compile("\\$\\{([^}]+)}");

  /**
   * {@code text} with its holes filled from {@code pairs} (name, value, name, value, ...; values
   * are turned into text with {@code String.valueOf}).
   */
  static String fill(String text, Object... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs");
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int k = 0; k < pairs.length; k += 2) {
      values.put((String) pairs[k], String.valueOf(pairs[k + 1]));
    }
    Set<String> used = new HashSet<>();
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      fillLine(line, values, used, out);
    }
    if (!used.containsAll(values.keySet())) {
      Set<String> unused = new HashSet<>(values.keySet());
      unused.removeAll(used);
      throw new GeneratorException("template values never used: " + unused);
    }
    // The split above gave one line after the text's final newline; drop its newline.
    return out.substring(0, out.length() - 1);
  }

  private static void fillLine(
      String line, Map<String, String> values, Set<String> used, StringBuilder out) {
    String trimmed = line.strip();
    Matcher whole = HOLE.matcher(trimmed);
    if (whole.matches()) {
      String value = value(whole.group(1), values, used);
      if (value.endsWith("\n")) {
        value = value.substring(0, value.length() - 1);
      }
      if (!value.isEmpty()) {
        String indent = line.substring(0, line.indexOf('$'));
        for (String l : value.split("\n", -1)) {
          out.append(l.isEmpty() ? "" : indent + l).append('\n');
        }
      }
      return;
    }
    Matcher m = HOLE.matcher(line);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String value = value(m.group(1), values, used);
      if (value.contains("\n")) {
        throw new GeneratorException(
            "hole ${" + m.group(1) + "} within a line takes one line, got: " + value);
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    out.append(sb).append('\n');
  }

  private static String value(String name, Map<String, String> values, Set<String> used) {
    String v = values.get(name);
    if (v == null) {
      throw new GeneratorException("template hole ${" + name + "} has no value");
    }
    used.add(name);
    return v;
  }
}

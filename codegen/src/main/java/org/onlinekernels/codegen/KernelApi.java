package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.codegen.KernelEntries.Entry;

/**
 * The rule's public stateless kernel, {@code <Rule>Kernel}: checked entries over caller-owned
 * buffers (one segment per field), each validating every argument once and then calling its body
 * through a method handle ({@code KernelBarrier}: the body stays a compilation root of its own, so
 * the Vector API code inside is compiled and inlined as one piece). Implementations: plain Java and
 * Vector API for float and double, picked by {@code of(provider, type)}. Sparse entries copy the
 * row into per-thread arrays and run the plain-Java row forms under both providers.
 */
final class KernelApi {
  private final LaneRule rule;
  private final String name;
  private final List<Entry> entries;

  KernelApi(LaneRule rule) {
    this.rule = rule;
    this.name = className(rule);
    this.entries = new KernelEntries(rule).all();
  }

  static String className(LaneRule rule) {
    return rule.name + "Kernel";
  }

  /** The class the source is: its shape, the holes filled by {@link #source}. */
  private static final String TEMPLATE =
      """
      ${header}
      package ${package};

      import java.lang.foreign.MemorySegment;
      import java.lang.invoke.MethodHandle;
      import java.lang.invoke.MethodHandles;
      import java.lang.invoke.MethodType;
      import org.onlinekernels.kernel.ElementType;
      import org.onlinekernels.kernel.KernelBarrier;
      import org.onlinekernels.kernel.KernelChecks;
      import org.onlinekernels.kernel.KernelProvider;
      import org.onlinekernels.kernel.lanes.RowScratch;

      /**
       * Stateless ${name} kernel over caller-owned buffers, one segment per state field
       * (${fields}), each of {@code n} elements of the kernel's element type, native byte order,
       * any offset; the rule is {@link ${ruleClass}}. Every entry checks all its arguments before
       * it writes anything. Obtain one with {@link #of}.
       */
      public abstract sealed class ${class} permits ${class}.Scalar, ${class}.Vector {
        private final ElementType type;
        ${typeFields}
        ${handles}

        ${constructor}

        /**
         * The kernel for buffers of {@code type} on {@code provider}'s implementation (Vector API
         * or plain Java).
         */
        public static ${class} of(KernelProvider provider, ElementType type) {
          if (type == null) {
            throw new IllegalArgumentException("type must be FLOAT or DOUBLE, got null");
          }
          return provider.isVector() ? Vector.of(type) : Scalar.of(type);
        }

        ${mixedFactory}

        /**
         * Element type of the inputs and weights (under mixed precision, of the float fields too).
         */
        public final ElementType elementType() {
          return type;
        }

        ${entries}

        ${impls}

        ${scalar}

        ${vector}
      }
      """;

  String source() {
    KernelBodies bodies = new KernelBodies(rule, name);
    return Template.fill(
        TEMPLATE,
        "header",
        Generated.header(rule, "the public stateless kernel"),
        "package",
        rule.packageName,
        "name",
        rule.name,
        "fields",
        String.join(", ", rule.fields),
        "ruleClass",
        rule.ruleClass,
        "class",
        name,
        "typeFields",
        typeFields(),
        "handles",
        String.join(
            "\n",
            entries.stream().map(e -> "private final MethodHandle " + e.name() + "Body;").toList()),
        "constructor",
        constructor(),
        "mixedFactory",
        rule.hasMixed() ? mixedFactory() : "",
        "entries",
        String.join("\n\n", entries.stream().map(this::entry).toList()),
        "impls",
        String.join(
            "\n\n",
            entries.stream()
                .map(
                    e ->
                        "/** Unchecked body of {@link #"
                            + e.name()
                            + "}. */\nabstract "
                            + e.returns()
                            + " "
                            + e.name()
                            + "Impl("
                            + e.signature()
                            + ");")
                .toList()),
        "scalar",
        bodies.write("Scalar", false, entries),
        "vector",
        bodies.write("Vector", true, entries));
  }

  /** Under mixed precision: whether this kernel is mixed, and each field's element type. */
  private String typeFields() {
    if (!rule.hasMixed()) {
      return "";
    }
    List<String> out = new ArrayList<>();
    out.add("/** Whether this is the mixed-precision kernel. */");
    out.add("final boolean mixed;");
    for (String f : rule.fields) {
      out.add("private final ElementType " + KernelEntries.typeOf(rule, f) + ";");
    }
    return String.join("\n", out);
  }

  private String constructor() {
    List<String> body = new ArrayList<>(List.of("this.type = type;"));
    if (rule.hasMixed()) {
      body.add("this.mixed = mixed;");
      for (String f : rule.fields) {
        body.add(
            "this."
                + KernelEntries.typeOf(rule, f)
                + " = "
                + (rule.mixedFloatFields.contains(f) ? "type" : "mixed ? ElementType.DOUBLE : type")
                + ";");
      }
    }
    for (Entry e : entries) {
      body.add(
          e.name()
              + "Body = KernelBarrier.bind(MethodHandles.lookup(), this, "
              + name
              + ".class, \""
              + e.name()
              + "Impl\", "
              + e.methodType()
              + ");");
    }
    return "private "
        + name
        + "(ElementType type, boolean mixed) {\n  "
        + String.join("\n  ", body)
        + "\n}";
  }

  private String mixedFactory() {
    return Template.fill(
        """
        /**
         * The mixed-precision kernel on {@code provider}'s implementation: float inputs, weights
         * and fields ${floatFields}; the other fields double, and the arithmetic in double
         * (bit-identical to the double rule fed the same float inputs).
         */
        public static ${class} mixed(KernelProvider provider) {
          return provider.isVector() ? Vector.MIXED_KERNEL : Scalar.MIXED_KERNEL;
        }""",
        "floatFields",
        String.join(", ", rule.mixedFloatFields),
        "class",
        name);
  }

  /** A checked entry: its checks, then its body through the method handle. */
  private String entry(Entry e) {
    return Template.fill(
        """
        /** ${doc} */
        public final ${returns} ${name}(${signature}) {
          ${checks}
          try {
            ${ret}${name}Body.invokeExact(${args});
          } catch (Throwable thrown) {
            throw KernelBarrier.rethrow(thrown);
          }
        }""",
        "doc",
        e.doc(),
        "returns",
        e.returns(),
        "name",
        e.name(),
        "signature",
        e.signature(),
        "checks",
        String.join("\n", e.checks()),
        "ret",
        e.returns().equals("void") ? "" : "return (" + e.returns() + ") ",
        "args",
        e.args());
  }
}

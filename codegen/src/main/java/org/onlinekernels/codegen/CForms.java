package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * A rule's C contender in one element type: its records, lane functions ({@link CTranslator}) and
 * the fused round the library's trainer runs on interleaved state, gathered (the records of a row
 * into an array, the predict's kept values and contributions per entry, the row's sum in {@code
 * FloatRowSums.sum4}'s order; the update's new values into the records, the changed fields back),
 * then the steps of the rule's optimizer around it from the rule's hooks file ({@link CHooks}).
 * Written by {@link CRuleGenerator}; what each C function mirrors is named in its comment.
 */
final class CForms {
  private final LaneRule rule;
  private final Flavor flavor;
  private final CHooks hooks;
  private final String t;
  private final String prefix;
  private final CTranslator tr;

  /** The lane functions over four lanes, or null where the rule runs its scalar ones alone. */
  private final String vectors;

  /** Why the rule has no four-lane functions (null when it has them). */
  private final String scalarOnly;

  /** Predict functions the round keeps per entry for the update and the scatter. */
  private final List<LaneRule.Function> kept;

  CForms(LaneRule rule, Flavor flavor, CHooks hooks, Map<String, CTranslator.Expr> constants) {
    this.rule = rule;
    this.flavor = flavor;
    this.hooks = hooks;
    this.t = flavor.t;
    this.prefix = rule.name + "_" + t + "_";
    this.tr = new CTranslator(rule, flavor, prefix, constants);
    this.kept = new ScalarForms(rule, flavor).kept;
    String v = null;
    String why = null;
    try {
      v = vectorFunctions(new CVectorTranslator(rule, flavor, prefix, constants));
    } catch (GeneratorException e) {
      why = e.getMessage();
    }
    this.vectors = v;
    this.scalarOnly = why;
  }

  /** The C names' prefix of this rule in this type, e.g. {@code ScInOL2_float_}. */
  static String prefix(LaneRule rule, Flavor flavor) {
    return rule.name + "_" + flavor.t + "_";
  }

  /** A rule's section in one element type: its shape, the holes filled by {@link #source}. */
  private static final String TEMPLATE =
      """
      /* ---- ${name} (${where}) in ${t} ---- */

      /* One record per coordinate: the fields adjacent, as the library's interleaved state. */
      typedef struct {
        ${fields}
      } ${p}rec;

      ${functions}

      ${vectors}

      ${model}

      #define RULE(name) ${p}##name
      #define MODEL ${p}model
      ${uniformIndices}

      ${predictRow}

      ${updateRow}

      ${scatter}

      ${commit}

      ${updateEvery}

      /*
       * The steps of ${optimizer} around the round (hand-written:
       * ${hooksFile}).
       */
      #include "${hooksFile}"

      ${lifecycle}

      ${round}

      DEFINE_TRAIN(${p}, ${t})

      #undef RULE
      #undef MODEL
      ${undefs}
      """;

  /** The rule's section of the generated header in this type. */
  String source() {
    return Template.fill(
        TEMPLATE,
        "name",
        rule.name,
        "where",
        rule.ruleClass + "." + rule.lanesClass,
        "t",
        t,
        "p",
        prefix,
        "fields",
        lines(rule.fields, f -> t + " " + f + ";"),
        "functions",
        functions(),
        "vectors",
        vectors != null
            ? vectors
            : "/* No four-lane functions (the scalar ones run alone, same bits): "
                + scalarOnly.replace("*/", "* /")
                + " */",
        "model",
        model(),
        "uniformIndices",
        uniformIndices(),
        "predictRow",
        predictRow(),
        "updateRow",
        updateRow(),
        "scatter",
        scatter(),
        "commit",
        commit(),
        "updateEvery",
        rule.everyCoordinate ? updateEvery() : "",
        "optimizer",
        hooks.optimizer(),
        "hooksFile",
        hooks.include(),
        "lifecycle",
        lifecycle(),
        "round",
        round(),
        "undefs",
        undefs());
  }

  // ---------------------------------------------------------------- the rule's own functions

  /** The lane functions in source order, the helpers first. */
  private String functions() {
    List<String> out = new ArrayList<>();
    for (Phase p : List.of(Phase.HELPER, Phase.UNIFORM, Phase.PREDICT, Phase.UPDATE)) {
      for (LaneRule.Function f : rule.phase(p)) {
        out.add(tr.function(f));
      }
    }
    return String.join("\n\n", out);
  }

  /** The lane functions over four lanes ({@link CVectorTranslator}), in source order. */
  private String vectorFunctions(CVectorTranslator vt) {
    List<String> out = new ArrayList<>();
    for (Phase p : List.of(Phase.HELPER, Phase.PREDICT, Phase.UPDATE)) {
      for (LaneRule.Function f : rule.phase(p)) {
        out.add(vt.function(f));
      }
    }
    return String.join("\n\n", out);
  }

  private String model() {
    List<String> scratch = new ArrayList<>();
    for (LaneRule.Function f : kept) {
      scratch.add(t + " *kept_" + f.name() + ";");
    }
    return Template.fill(
        """
        /* A model: RuleOptimizer's state, uniforms and round scratch for one output. */
        typedef struct {
          ${p}rec *st; /* the records */
          int d;
          double u[${nu}]; /* the uniforms, in the rule's order (RuleOptimizer.u) */
          double s[4]; /* the optimizer's scalar state, its hooks' */
          double input_norm; /* ||x||^2 of the row, where the optimizer needs it */
          ${recs}
          ${kept}
          ${t} *dense; /* the row scattered into d coordinates (every-coordinate rules) */
        } ${p}model;""",
        "p",
        prefix,
        "nu",
        Math.max(1, rule.uniforms().size()),
        "recs",
        lines(rule.fields, f -> t + " *rec_" + f + "; /* the row's field " + f + ", gathered */"),
        "kept",
        String.join("\n", scratch),
        "t",
        t);
  }

  /** {@code U_<uniform>}: a uniform's index in {@code u}, for the hooks. */
  private String uniformIndices() {
    List<String> out = new ArrayList<>();
    int k = 0;
    for (String u : rule.uniforms().keySet()) {
      out.add("#define U_" + u + " " + k++);
    }
    return String.join("\n", out);
  }

  private String undefs() {
    List<String> out = new ArrayList<>();
    for (String u : rule.uniforms().keySet()) {
      out.add("#undef U_" + u);
    }
    out.addAll(hooks.macros().stream().map(m -> "#undef " + m).toList());
    return String.join("\n", out);
  }

  // ---------------------------------------------------------------- the gathered round

  /** The uniforms in this type, and the derived uniforms computed from them. */
  private String uniformLocals() {
    List<String> out = new ArrayList<>();
    int k = 0;
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      String type = CTranslator.cType(u.getValue().equals("float") ? t : u.getValue());
      out.add("const " + type + " " + u.getKey() + " = (" + type + ") m->u[" + k++ + "];");
    }
    for (LaneRule.Function f : rule.uniformFunctions(false)) {
      out.add(
          "const "
              + cType(f.type())
              + " "
              + f.name()
              + " = "
              + prefix
              + f.name()
              + "("
              + String.join(", ", f.params())
              + ");");
    }
    return String.join("\n", out);
  }

  private String cType(String javaType) {
    return CTranslator.cType(javaType.equals("float") ? t : javaType);
  }

  /** Per-entry code of the rule: locals named as the Java forms name them. */
  private CoordinateCode coordinate(JavaWriter out, Function<String, String> load) {
    CoordinateCode c =
        new CoordinateCode(rule, flavor, out, load, prefix, this::cType).bind("x", "x");
    for (LaneRule.Function f : rule.uniformFunctions(false)) {
      c.bind(f.name(), f.name());
    }
    for (String u : rule.uniforms().keySet()) {
      c.bind(u, u);
    }
    return c;
  }

  private String contribution(CoordinateCode c) {
    return rule.computesWeight()
        ? "x != 0 ? x * " + c.value("w") + " : 0"
        : "x * " + c.value(rule.weightField);
  }

  /**
   * The uniforms broadcast to four lanes for the four-lane functions ({@code <name>_v}), the
   * derived ones as masks or vectors.
   */
  private String vectorUniforms() {
    List<String> out = new ArrayList<>();
    for (String u : rule.uniforms().keySet()) {
      String type = rule.uniforms().get(u);
      out.add(vectorDecl(type, u));
    }
    for (LaneRule.Function f : rule.uniformFunctions(false)) {
      if (!f.type().equals("boolean")) {
        out.add(vectorDecl(f.type(), f.name()));
      }
    }
    return String.join("\n", out);
  }

  private String vectorDecl(String javaType, String name) {
    return javaType.equals("boolean")
        ? "const m4_" + t + " " + name + "_v = vmask_" + t + "(" + name + ");"
        : "const v4_" + t + " " + name + "_v = vset_" + t + "(" + name + ");";
  }

  /**
   * Per-entry code over four lanes: entries {@code j .. j + 3}, the fields loaded from their
   * arrays.
   */
  private CoordinateCode lanes(JavaWriter out) {
    CoordinateCode c =
        new CoordinateCode(
                rule,
                flavor,
                out,
                f -> "vload_" + t + "(m->rec_" + f + " + j)",
                prefix + "v_",
                type -> (type.equals("boolean") ? "m4_" : "v4_") + t)
            .bind("x", "x");
    for (LaneRule.Function f : rule.uniformFunctions(false)) {
      // A truth for every lane stays a scalar (CVectorTranslator.scalarTruth).
      c.bind(f.name(), f.type().equals("boolean") ? f.name() : f.name() + "_v");
    }
    for (String u : rule.uniforms().keySet()) {
      c.bind(u, u + "_v");
    }
    return c;
  }

  /**
   * {@code <Flavor><Rule>Forms.gather}: field {@code f} of entry {@code j}'s record into {@code
   * rec_f[j]}; four records at a time, loaded whole and transposed, where a record has 2 or 4
   * fields.
   */
  private String gather() {
    String each =
        "const "
            + prefix
            + "rec *r = &m->st[idx[j]];\n"
            + lines(rule.fields, f -> "m->rec_" + f + "[j] = r->" + f + ";");
    if (!wholeRecords()) {
      return "for (int j = 0; j < nnz; j++) {\n" + indent(each) + "\n}";
    }
    return Template.fill(
        """
        {
          int j = 0;
          for (; j + 3 < nnz; j += 4) {
            gather4x${n}_${t}(${records}, ${fields});
          }
          for (; j < nnz; j++) {
            ${each}
          }
        }""",
        "n",
        rule.fields.size(),
        "t",
        t,
        "records",
        records("const " + t),
        "fields",
        String.join(", ", rule.fields.stream().map(f -> "m->rec_" + f + " + j").toList()),
        "each",
        each);
  }

  /** Whether the round loads and stores four records at a time, whole (2 or 4 fields). */
  private boolean wholeRecords() {
    return vectors != null && (rule.fields.size() == 2 || rule.fields.size() == 4);
  }

  private String records(String pointer) {
    return String.join(
        ", ",
        List.of("j", "j + 1", "j + 2", "j + 3").stream()
            .map(k -> "(" + pointer + " *) &m->st[idx[" + k + "]]")
            .toList());
  }

  private static String indent(String lines) {
    return "  " + lines.replace("\n", "\n  ");
  }

  private String predictRow() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = coordinate(body, f -> "m->rec_" + f + "[j]");
    c.calls(rule.phase(Phase.PREDICT));
    for (LaneRule.Function f : kept) {
      body.line(kept(f.name()) + " = " + c.value(f.name()) + ";");
    }
    body.line("a[j & 3] += " + contribution(c) + ";");
    return Template.fill(
        """
        /*
         * The predict half (RuleOptimizer.roundPredict, gathered: ${P}Forms.gather and
         * predictGathered, ${L}RowSums.sum4): the row's records into one array per field, the
         * kept values, and the row's sum: entry j's contribution into partial sum j mod 4 (four at
         * a time, a lane each), then (a0 + a1) + (a2 + a3).
         */
        static inline ${t} RULE(predict_row)(MODEL *m, const int32_t *idx, const ${t} *val, int nnz) {
          ${uniforms}
          ${gather}
          ${t} a[4] = {0, 0, 0, 0};
          int j = 0;
          ${lanes}
          for (; j < nnz; j++) {
            const ${t} x = val[j];
            ${body}
          }
          return (a[0] + a[1]) + (a[2] + a[3]);
        }""",
        "P",
        flavor.prefix + rule.name,
        "L",
        flavor.lanes,
        "t",
        t,
        "uniforms",
        uniformLocals(),
        "gather",
        gather(),
        "lanes",
        vectors == null ? "" : predictLanes(),
        "body",
        body.toString());
  }

  /** The predict's loop over four entries at a time, lane {@code l} into partial sum {@code l}. */
  private String predictLanes() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = lanes(body);
    c.calls(rule.phase(Phase.PREDICT));
    for (LaneRule.Function f : kept) {
      body.line("vstore_" + t + "(m->kept_" + f.name() + " + j, " + c.value(f.name()) + ");");
    }
    String zero = "vset_" + t + "(0)";
    String contribution =
        rule.computesWeight()
            ? "vsel_" + t + "(x != " + zero + ", x * " + c.value("w") + ", " + zero + ")"
            : "x * " + c.value(rule.weightField);
    body.line("acc += " + contribution + ";");
    return Template.fill(
        """
        if (nnz >= 4) {
          ${vuniforms}
          v4_${t} acc = vset_${t}(0);
          for (; j + 3 < nnz; j += 4) {
            const v4_${t} x = vload_${t}(val + j);
            ${body}
          }
          for (int l = 0; l < 4; l++) a[l] = acc[l];
        }""",
        "t",
        t,
        "vuniforms",
        vectorUniforms(),
        "body",
        body.toString());
  }

  private String updateRow() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = coordinate(body, f -> "m->rec_" + f + "[j]").bind("g", "g").bind("gx", "gx");
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), kept(f.name()));
    }
    c.calls(rule.phase(Phase.UPDATE));
    for (LaneRule.Function f : rule.sums()) {
      body.line("sum += " + c.value(f.name()) + ";");
    }
    for (String f : rule.fields) {
      if (c.written().contains(f)) {
        body.line("m->rec_" + f + "[j] = " + c.value(f) + ";");
      }
    }
    boolean lanes = vectors != null && rule.sums().isEmpty();
    return Template.fill(
        """
        /*
         * The update half (${P}Forms.updateGathered), with the loss derivative g: the new field
         * values into the field arrays${four}; returns the rule's row sum (0
         * without one).
         */
        static inline ${t} RULE(update_row)(MODEL *m, const ${t} *val, int nnz, ${t} g) {
          ${uniforms}
          ${t} sum = 0;
          int j = 0;
          ${lanes}
          for (; j < nnz; j++) {
            const ${t} x = val[j];
            const ${t} gx = g * x;
            ${body}
          }
          return sum;
        }""",
        "P",
        flavor.prefix + rule.name,
        "four",
        lanes ? " (four at a time, a lane each)" : "",
        "t",
        t,
        "uniforms",
        uniformLocals(),
        "lanes",
        lanes ? updateLanes() : "",
        "body",
        body.toString());
  }

  /** The update's loop over four entries at a time (rules without a row sum). */
  private String updateLanes() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = lanes(body).bind("g", "gv").bind("gx", "gx");
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), "vload_" + t + "(m->kept_" + f.name() + " + j)");
    }
    c.calls(rule.phase(Phase.UPDATE));
    for (String f : rule.fields) {
      if (c.written().contains(f)) {
        body.line("vstore_" + t + "(m->rec_" + f + " + j, " + c.value(f) + ");");
      }
    }
    return Template.fill(
        """
        if (nnz >= 4) {
          ${vuniforms}
          const v4_${t} gv = vset_${t}(g);
          for (; j + 3 < nnz; j += 4) {
            const v4_${t} x = vload_${t}(val + j);
            const v4_${t} gx = gv * x;
            ${body}
          }
        }""",
        "t",
        t,
        "vuniforms",
        vectorUniforms(),
        "body",
        body.toString());
  }

  /**
   * {@code <Flavor><Rule>Forms.scatter}: the fields a round changes back to the row's records (an
   * update's new value, else the predict's kept one); four records at a time, whole, where a record
   * has 2 or 4 fields (an unchanged field written back as gathered).
   */
  private String scatter() {
    Set<String> updated = new LinkedHashSet<>(rule.updateFieldOutputs());
    Set<String> fromPredict = new LinkedHashSet<>(rule.predictFieldOutputs());
    List<String> stores = new ArrayList<>();
    for (String f : ScalarForms.changedFields(rule)) {
      stores.add("r->" + f + " = " + (updated.contains(f) ? "m->rec_" + f + "[j]" : kept(f)) + ";");
    }
    List<String> sources = new ArrayList<>();
    for (String f : rule.fields) {
      boolean kept = fromPredict.contains(f) && !updated.contains(f);
      sources.add("vload_" + t + "(m->" + (kept ? "kept_" : "rec_") + f + " + j)");
    }
    return Template.fill(
        """
        /* ${P}Forms.scatter: the changed fields back to the row's records. */
        static inline void RULE(scatter)(MODEL *m, const int32_t *idx, int nnz) {
          int j = 0;
          ${whole}
          for (; j < nnz; j++) {
            ${p}rec *r = &m->st[idx[j]];
            ${stores}
          }
        }""",
        "P",
        flavor.prefix + rule.name,
        "p",
        prefix,
        "whole",
        wholeRecords()
            ? "for (; j + 3 < nnz; j += 4) {\n  scatter4x"
                + rule.fields.size()
                + "_"
                + t
                + "("
                + records(t)
                + ", "
                + String.join(", ", sources)
                + ");\n}"
            : "",
        "stores",
        String.join("\n", stores));
  }

  private static String kept(String name) {
    return "m->kept_" + name + "[j]";
  }

  /** The predict's field values, kept when no update follows (beforeUpdate said no). */
  private String commit() {
    List<String> stores = new ArrayList<>();
    for (String f : rule.predictFieldOutputs()) {
      stores.add("m->st[idx[j]]." + f + " = " + kept(f) + ";");
    }
    return Template.fill(
        """
        /*
         * ${P}Forms.commitBlock: the predict's new field values stand without an update.
         */
        static inline void RULE(commit)(MODEL *m, const int32_t *idx, int nnz) {
          ${loop}
        }""",
        "P",
        flavor.prefix + rule.name,
        "loop",
        stores.isEmpty()
            ? "(void) m;\n(void) idx;\n(void) nnz;"
            : "for (int j = 0; j < nnz; j++) {\n  " + String.join("\n  ", stores) + "\n}");
  }

  /**
   * The update of every coordinate (the rule changes a coordinate whose input is 0 too): the row
   * scattered into {@code d} zeros, {@code updateBlockRecompute} over all of them, the zeros back.
   */
  private String updateEvery() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c =
        coordinate(body, f -> "m->st[i]." + f).bind("x", "x").bind("g", "g").bind("gx", "gx");
    for (LaneRule.Function f : rule.predictValuesForUpdate()) {
      c.call(f);
    }
    c.calls(rule.phase(Phase.UPDATE));
    for (String f : rule.fields) {
      if (c.written().contains(f)) {
        body.line("m->st[i]." + f + " = " + c.value(f) + ";");
      }
    }
    return Template.fill(
        """
        /*
         * The update of every coordinate (${P}Forms.updateBlockRecompute over [0, d) on the row
         * scattered into d zeros, as the optimizer's dense update runs it).
         */
        static inline void RULE(update_every)(MODEL *m, const int32_t *idx, const ${t} *val, int nnz, ${t} g) {
          ${uniforms}
          for (int j = 0; j < nnz; j++) m->dense[idx[j]] = val[j];
          for (int i = 0; i < m->d; i++) {
            const ${t} x = m->dense[i];
            const ${t} gx = g * x;
            ${body}
          }
          for (int j = 0; j < nnz; j++) m->dense[idx[j]] = 0;
        }""",
        "P",
        flavor.prefix + rule.name,
        "t",
        t,
        "uniforms",
        uniformLocals(),
        "body",
        body.toString());
  }

  // ---------------------------------------------------------------- the optimizer around it

  private String lifecycle() {
    List<String> allocs = new ArrayList<>();
    List<String> frees = new ArrayList<>(List.of("free(m->st);"));
    for (String f : rule.fields) {
      allocs.add("m->rec_" + f + " = malloc(n * sizeof(" + t + "));");
      allocs.add("ok = ok && m->rec_" + f + ";");
      frees.add("free(m->rec_" + f + ");");
    }
    for (LaneRule.Function f : kept) {
      allocs.add("m->kept_" + f.name() + " = malloc(n * sizeof(" + t + "));");
      allocs.add("ok = ok && m->kept_" + f.name() + ";");
      frees.add("free(m->kept_" + f.name() + ");");
    }
    frees.add("free(m->dense);");
    return Template.fill(
        """
        /* A fresh model (the records zeroed, then the optimizer's reset); 1 if memory ran out. */
        static int RULE(init)(MODEL *m, int d, int max_nnz) {
          memset(m, 0, sizeof *m);
          m->d = d;
          m->st = state_alloc((size_t) d * sizeof *m->st);
          const size_t n = (size_t) (max_nnz > 0 ? max_nnz : 1);
          ${dense}
          int ok = m->st != NULL;
          ${allocs}
          if (!ok) return 1;
          RULE(reset)(m);
          return 0;
        }

        static void RULE(free)(MODEL *m) {
          ${frees}
        }

        /* The next row's records on their way into the cache. */
        static inline void RULE(prefetch)(const MODEL *m, const int32_t *idx, int nnz) {
          for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);
        }""",
        "dense",
        rule.everyCoordinate
            ? "m->dense = state_alloc((size_t) d * sizeof(" + t + "));\nif (!m->dense) return 1;"
            : "",
        "allocs",
        String.join("\n", allocs),
        "frees",
        String.join("\n", frees));
  }

  /** RuleOptimizer.roundPredict and roundUpdate, with the hooks the rule's file defines. */
  private String round() {
    String norm =
        hooks.inputNorm() ? "m->input_norm = (double) dot_vl_" + t + "(val, val, nnz, 4);" : "";
    String finish =
        hooks.has("finish_predict")
            ? "return RULE(finish_predict)(m, sum, yhat);"
            : "*yhat = sum;\nreturn 0;";
    return Template.fill(
        """
        /* RuleOptimizer.roundPredict: yhat of the row; 0, or 3 where the library throws. */
        static inline int RULE(predict)(MODEL *m, const int32_t *idx, const ${t} *val, int nnz, double *yhat) {
          ${norm}
          double sum = (double) RULE(predict_row)(m, idx, val, nnz);
          ${finish}
        }

        /* RuleOptimizer.roundUpdate with g = dLoss/dyhat: 0, or 3 where the library throws. */
        static inline int RULE(update)(MODEL *m, const int32_t *idx, const ${t} *val, int nnz, double g) {
          ${update}
        }""",
        "t",
        t,
        "norm",
        norm,
        "finish",
        finish,
        "update",
        hooks.has("round_update") ? "return RULE(round_update)(m, idx, val, nnz, g);" : update());
  }

  private String update() {
    return Template.fill(
        """
        int go = 1;
        ${before}
        double row_sum = 0;
        if (go) {
          row_sum = (double) RULE(update_row)(m, val, nnz, (${t}) g);
          RULE(scatter)(m, idx, nnz);
        } else {
          RULE(commit)(m, idx, nnz);
        }
        ${after}""",
        "t",
        t,
        "before",
        hooks.has("before_update")
            ? "int rc = RULE(before_update)(m, g, &go);\nif (rc) return rc;"
            : "",
        "after",
        hooks.has("after_update")
            ? "return RULE(after_update)(m, row_sum);"
            : "(void) row_sum;\nreturn 0;");
  }

  private static String lines(List<String> items, Function<String, String> f) {
    return String.join("\n", items.stream().map(f).toList());
  }
}

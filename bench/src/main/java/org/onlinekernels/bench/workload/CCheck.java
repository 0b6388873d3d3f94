package org.onlinekernels.bench.workload;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * The C contender's check, bit for bit: for every planned workload, rule and type, the library's
 * first-pass mean progressive loss ({@link TrainerContender}, {@code OnlineTrainer.fit(...)[0]
 * .meanLoss()}) must equal the C loop's {@code pass_loss_bits}.
 *
 * <p>Runs in a JVM of its own, started by {@link CSide} with {@value #FDLIBM_FLAGS}: the library's
 * logistic loss calls {@code Math.exp}, which HotSpot on x86-64 computes with its Intel libm stub
 * unless those flags turn the libm intrinsics off, when it is HotSpot's port of fdlibm, the same
 * bits as {@code StrictMath.exp} and as the C loop's {@code fdlibm.h}. The stub and fdlibm differ
 * in the last bit on about 10 % of arguments, and one differing {@code exp} changes a gradient and
 * parts the trajectories (bench/c/contender/README.md measured it). The timed JMH forks keep the
 * default flags: this JVM only checks. It refuses to run without them.
 *
 * <p>{@code CCheck BINARY WORKDIR NONZEROS PLAN OUT}: {@code PLAN} has lines {@code workload rule
 * type}; synthetic workloads are written as LIBSVM text under {@code WORKDIR} ({@link
 * Workload#libsvmFile}) for the C loop to read; {@code OUT} receives {@code
 * workload,rule,type,library_bits,c_bits}, every case whatever its verdict: {@link CSide} times the
 * equal ones only and reports the others.
 */
public final class CCheck {
  /** The JVM options under which {@code Math.exp} is fdlibm's. */
  public static final String FDLIBM_FLAGS = "-XX:+UnlockDiagnosticVMOptions -XX:-UseLibmIntrinsic";

  private CCheck() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws IOException {
    String intrinsic =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .getVMOption("UseLibmIntrinsic")
            .getValue();
    if (!intrinsic.equals("false")) {
      throw new IllegalStateException(
          "CCheck must run with " + FDLIBM_FLAGS + " (UseLibmIntrinsic is " + intrinsic + ")");
    }
    Path bin = Path.of(args[0]);
    Path workDir = Path.of(args[1]);
    long nonzeros = Long.parseLong(args[2]);
    Map<String, List<String[]>> plan = new LinkedHashMap<>();
    for (String l : Files.readAllLines(Path.of(args[3]))) {
      if (!l.isBlank()) {
        String[] f = l.strip().split(" ");
        plan.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f);
      }
    }
    CContender c = new CContender(bin, "", List.of(), List.of());
    List<String> lines = new ArrayList<>(List.of("workload,rule,type,library_bits,c_bits"));
    for (var e : plan.entrySet()) {
      Workload wl = Workload.load(e.getKey(), nonzeros, Workload.dataFolder());
      Path file = Workload.libsvmFile(e.getKey(), nonzeros, Workload.dataFolder(), workDir);
      if (wl.synthetic()) {
        LibSvmText.write(wl.data, file);
      }
      for (String[] f : e.getValue()) {
        String lib;
        try (TrainerContender t =
            new TrainerContender(wl, f[1], ElementType.parse(f[2]), InputPolicy.CHECKED)) {
          t.reset();
          lib = CContender.Result.bits(t.pass());
        }
        String cBits = c.run(file, f[1], f[2], wl.d, 1).passLossBits();
        lines.add(String.join(",", f[0], f[1], f[2], lib, cBits));
        System.out.printf(
            "%-22s %-15s %-6s library %s C %s %s%n",
            f[0], f[1], f[2], lib, cBits, lib.equals(cBits) ? "equal" : "DIFFER");
      }
    }
    Files.write(Path.of(args[4]), lines);
  }
}

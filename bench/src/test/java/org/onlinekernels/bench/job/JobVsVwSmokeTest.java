package org.onlinekernels.bench.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VW side of the workload report with stand-ins for both programs (a fake {@code vw} printing
 * VW's loss line, a fake launcher printing train's JSON): every pair runs in turn, GNU time's
 * figures and each program's loss reach the results and the report's table; without VW the report
 * says why it skipped. Starts processes, so in the long stage.
 */
@Tag("long")
class JobVsVwSmokeTest {
  private static Path script(Path dir, String name, String body) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  @Test
  void bothProgramsRunInTurnAndTheirFiguresReachTheReport(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isExecutable(JobVsVw.GNU_TIME), "no GNU time: the runs would be skipped");
    // VW prints its summary on stderr; the loss of the last "average loss" line counts.
    Path vw =
        script(
            dir, "vw", "echo 'average loss = 0.612345' >&2; echo 'average loss = 0.511849 h' >&2");
    Path ours =
        script(
            dir,
            "ours",
            "echo '{\"data\": \"x\", \"progressive\": {\"examples\": 3, \"loss\": 0.5118484478},"
                + " \"model\": null}'");
    Path data = Files.writeString(dir.resolve("d.vw"), "1 |f a\n");
    Path out = dir.resolve("out");
    JobVsVw.measure(Optional.of(vw), data, ours, 2, "128m", out);
    List<String> csv = Files.readAllLines(out.resolve(JobVsVw.CSV));
    assertEquals(1 + 2 * 2 * JobVsVw.PAIRS.size(), csv.size(), String.join("\n", csv));
    // In turn: VW, ours, VW, ours, ...
    for (int i = 1; i < csv.size(); i++) {
      assertTrue(csv.get(i).startsWith(i % 2 == 1 ? "vw," : "ours,"), csv.get(i));
      JobVsVw.Run r = JobVsVw.Run.parse(csv.get(i));
      assertTrue(r.rssMb() > 0 && r.cpu() >= 0 && r.wall() >= 0, csv.get(i));
      assertEquals(i % 2 == 1 ? "0.511849" : "0.5118484478", r.loss(), csv.get(i));
    }
    StringBuilder md = new StringBuilder();
    JobVsVw.section(md, out);
    String s = md.toString();
    assertTrue(s.contains("## The whole job beside Vowpal Wabbit"), s);
    for (String row :
        new String[] {
          "| `--ftrl` | ftrl |", "| `--freegrad` | freegrad |", "| `default` | scinol2 |"
        }) {
      assertTrue(s.contains(row), row + " in\n" + s);
    }
    assertTrue(s.contains("| 0.511849 | 0.5118484478 |"), s);
  }

  @Test
  void withoutVwTheReportSaysWhyItSkipped(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    JobVsVw.measure(Optional.empty(), dir.resolve("none.vw"), dir.resolve("ours"), 3, null, out);
    StringBuilder md = new StringBuilder();
    JobVsVw.section(md, out);
    assertTrue(
        md.toString()
            .contains("VW skipped: no vw binary (give --vw PATH, set VW, or put vw on the PATH)."),
        md.toString());
    StringBuilder none = new StringBuilder();
    JobVsVw.section(none, dir);
    assertEquals("", none.toString(), "no section where the runs were not asked for");
  }

  @Test
  void aProgramThatFailsFailsTheRunNamingIt(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isExecutable(JobVsVw.GNU_TIME));
    Path vw = script(dir, "vw", "echo 'vw: bad option' >&2; exit 3");
    Path data = Files.writeString(dir.resolve("d.vw"), "1 |f a\n");
    var e =
        assertThrows(
            java.io.IOException.class,
            () -> JobVsVw.measure(Optional.of(vw), data, vw, 1, null, dir.resolve("out")));
    assertTrue(
        e.getMessage().contains("vw --ftrl failed (exit 3): vw: bad option"), e.getMessage());
  }

  @Test
  void aGivenVwThatIsNoExecutableIsRefused(@TempDir Path dir) {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> JobVsVw.findVw(dir.resolve("missing-vw").toString()));
    assertTrue(e.getMessage().contains("is not an executable file"), e.getMessage());
  }
}

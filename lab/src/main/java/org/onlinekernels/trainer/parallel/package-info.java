/**
 * The lab's probe of the parallel trainer's merge ({@code MergePhasesProbe}: the CPU time of each
 * phase of a deterministic round, bench-report/threads-2026-11-26-third.md) and of the shared-state
 * trainer's private hot records ({@code HotFoldStress}: every two-sided fold checked against what a
 * race-free run could reach, bench-report/threads-2026-11-29.md, session 8). It lives in the
 * library's package because it replays the trainer's package-private phases; on the class path the
 * two halves are one package, as a test's would be. lab/README.md says how to run it.
 */
package org.onlinekernels.trainer.parallel;

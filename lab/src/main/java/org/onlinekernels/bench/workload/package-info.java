/**
 * The lab's study on the workload benchmark's harness: issue #21's synthetic streams against the C
 * loop, judged against the targets ({@link org.onlinekernels.bench.workload.MetalStreams},
 * bench-report/metal-streams/). It lives in the harness's package because it builds on its
 * package-private profiles and figures; on the class path the two halves are one package, as a
 * test's would be. lab/README.md says how to run it.
 */
package org.onlinekernels.bench.workload;

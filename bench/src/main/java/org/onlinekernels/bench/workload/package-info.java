/**
 * The whole job timed: online passes of the trainer, the optimizer loop, hand-written fused loops,
 * Tribuo, MOA and the C contender over the data files and synthetic streams, checked bit for bit
 * where the contender runs the same rule, and their reports (bench-report/workload.md,
 * bench-report/metal/).
 */
package org.onlinekernels.bench.workload;

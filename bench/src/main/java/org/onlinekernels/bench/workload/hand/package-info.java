/**
 * The hand-written fused Java loops the workload benchmark holds the trainer against, each running
 * exactly the library's rule (checked in lockstep).
 */
package org.onlinekernels.bench.workload.hand;

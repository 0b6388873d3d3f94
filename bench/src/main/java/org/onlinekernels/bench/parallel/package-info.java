/**
 * Thread scaling of the parallel trainers, one process per configuration (docs/parallel/README.md).
 */
package org.onlinekernels.bench.parallel;

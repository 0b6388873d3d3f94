/**
 * The JMH benchmarks of the kernels (per coordinate, dense and sparse, against the memory roof, the
 * scalar fallback, a hand-written loop and Tribuo's AdaGrad) and their shared states and
 * parameters. bench/README.md says how each is run; the reports are in bench-report/.
 */
package org.onlinekernels.bench;

/**
 * The kernels' benchmark report: runs the JMH suite, records the machine and the run, and renders
 * bench-report/kernels.md and its charts from results.csv.
 */
package org.onlinekernels.bench.report;

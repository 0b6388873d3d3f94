/**
 * The whole job against Vowpal Wabbit (issue #35): a text file in, a model out, our command line
 * and VW side by side on the same Vowpal Wabbit file. {@link
 * org.onlinekernels.bench.job.VwSynthetic} writes the synthetic file; {@link
 * org.onlinekernels.bench.job.JobVsVw} runs both programs on it and reports CPU seconds, wall time,
 * max RSS and the progressive losses (for the script {@code bench/job-vs-vw} and the workload
 * report's section "The whole job beside Vowpal Wabbit"). VW is not part of the project: the script
 * takes a {@code vw} binary that is there ({@code --vw PATH}, {@code VW}, or the PATH), or skips
 * VW's runs with a message.
 */
package org.onlinekernels.bench.job;

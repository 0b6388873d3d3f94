/**
 * Training on several threads by iterative parameter mixing: each thread runs its own learners on a
 * shard of every round of N examples, and the learners are merged (docs/MERGING.md) after each
 * round. Deterministic for a fixed number of threads and merge interval.
 */
package org.onlinekernels.trainer.parallel;

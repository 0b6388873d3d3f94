/**
 * Training on several threads (docs/parallel/README.md): shared-state training, the threads
 * updating one state lock-free ({@link org.onlinekernels.trainer.parallel.SharedStateTrainer}), or
 * iterative parameter mixing, each thread running its own learners on a shard of every round of N
 * examples, merged (docs/MERGING.md) after each round, deterministic for a fixed number of threads
 * and merge interval ({@link org.onlinekernels.trainer.parallel.ParallelTrainer}); {@link
 * org.onlinekernels.trainer.parallel.ParallelTraining} runs either.
 */
package org.onlinekernels.trainer.parallel;

/**
 * Labelled data in memory: {@link org.onlinekernels.data.SparseDataset} (compressed sparse rows,
 * immutable, validated as it is built) and the synthetic problems the tests, experiments and
 * benchmarks draw ({@link org.onlinekernels.data.SyntheticScInOL}, {@link
 * org.onlinekernels.data.HashedZipfStream}).
 */
package org.onlinekernels.data;

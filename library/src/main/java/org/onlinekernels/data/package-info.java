/**
 * Labelled sparse rows: {@link org.onlinekernels.data.SparseDataset}, a data set held in memory
 * (compressed sparse rows, immutable, validated as it is built), and the stream types a trainer
 * reads without holding the data: {@link org.onlinekernels.data.RowBlock} (a block of rows in
 * reusable buffers), {@link org.onlinekernels.data.RowFeed} (a source of blocks, e.g. a file reader
 * or a user's own reader of a socket or a queue), {@link org.onlinekernels.data.RowSource} (the
 * passes of a run) and {@link org.onlinekernels.data.ShuffleFeed} (a bounded shuffle buffer); and
 * the synthetic problems the tests, experiments and benchmarks draw ({@link
 * org.onlinekernels.data.SyntheticScInOL}, {@link org.onlinekernels.data.HashedZipfStream}).
 */
package org.onlinekernels.data;

/**
 * The trained model: {@link org.onlinekernels.trainer.model.LinearModel} (an algorithm, its
 * outputs' weights and what is needed to score new rows) and its text file, written crash-safely
 * with a checksum and read with every check (docs/MODEL_FORMAT.md).
 */
package org.onlinekernels.trainer.model;

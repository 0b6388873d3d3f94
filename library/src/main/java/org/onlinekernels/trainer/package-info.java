/**
 * The fused online trainer: {@link org.onlinekernels.trainer.OnlineTrainer} runs online passes of
 * any optimizer (chosen by name through {@link org.onlinekernels.trainer.AlgorithmSpec}) over
 * sparse or dense rows with progressive validation, seeded shuffling, one-vs-rest multiclass
 * outputs sharing one packed instance, and no allocation per example; {@link
 * org.onlinekernels.trainer.model.LinearModel} is the saved model and its file format.
 */
package org.onlinekernels.trainer;

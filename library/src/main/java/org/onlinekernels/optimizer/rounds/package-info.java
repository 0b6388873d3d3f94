/**
 * The round engine's parts, as {@link org.onlinekernels.optimizer.RuleOptimizer} uses them: where a
 * rule's fields live ({@link org.onlinekernels.optimizer.rounds.RuleStorage}), the rule's row forms
 * bound to them ({@link org.onlinekernels.optimizer.rounds.StateForms}), the optimizer's copy of
 * the row in hand ({@link org.onlinekernels.optimizer.rounds.RowCopy}), and how a block of rounds
 * runs on this CPU ({@link org.onlinekernels.optimizer.rounds.RoundTuning}, {@link
 * org.onlinekernels.optimizer.rounds.TouchRace}). Same bits every way. Internal to the library.
 */
package org.onlinekernels.optimizer.rounds;

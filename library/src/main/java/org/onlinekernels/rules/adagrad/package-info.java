/**
 * AdaGrad with per-coordinate rates (McMahan and Streeter 2010; Duchi, Hazan and Singer 2011), a
 * scalar rate or {@code alpha D_i}, and an optional box: the rule's source ({@code AdaGrad}), its
 * optimizer and its reference. docs/ALGORITHMS.md, section 1.
 */
package org.onlinekernels.rules.adagrad;

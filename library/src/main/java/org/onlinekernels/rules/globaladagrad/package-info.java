/**
 * AdaGrad with one global rate (Streeter and McMahan 2010, Theorem 2): the rule's source, its
 * optimizer and its reference. docs/ALGORITHMS.md, section 1.
 */
package org.onlinekernels.rules.globaladagrad;

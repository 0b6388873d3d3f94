/**
 * Adaptive online gradient descent (Bartlett, Hazan and Rakhlin 2007) on an L2 ball and on a
 * per-coordinate box: the rule's source, its two optimizers and their references.
 * docs/ALGORITHMS.md, section 2.
 */
package org.onlinekernels.rules.aogd;

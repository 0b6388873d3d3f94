/**
 * Plain online gradient descent with the rate {@code eta / sqrt(t)}, the papers' baseline ({@link
 * org.onlinekernels.rules.ogd.OgdOptimizer}, command-line name {@code ogd}): plain loops, not a
 * rule of the registry (it has no generated forms). docs/ALGORITHMS.md, section 12.
 */
package org.onlinekernels.rules.ogd;

/**
 * FTRL-Proximal with L1 and L2 regularization and exact zeros (McMahan et al. 2013): the rule's
 * source, its optimizer and its reference. docs/ALGORITHMS.md, section 13.1.
 */
package org.onlinekernels.rules.ftrl;

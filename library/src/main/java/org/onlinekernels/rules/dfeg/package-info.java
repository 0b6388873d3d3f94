/**
 * Dimension-free exponentiated gradient (Orabona 2013): the rule's source, its optimizer and its
 * reference. docs/ALGORITHMS.md, section 5.
 */
package org.onlinekernels.rules.dfeg;

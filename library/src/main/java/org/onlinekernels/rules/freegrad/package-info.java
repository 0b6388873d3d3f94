/**
 * FreeGrad per coordinate (Mhammedi and Koolen 2020): the rule's source, its optimizer and its
 * reference. docs/ALGORITHMS.md, section 13.3.
 */
package org.onlinekernels.rules.freegrad;

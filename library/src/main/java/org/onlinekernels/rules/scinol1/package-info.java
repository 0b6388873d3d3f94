/**
 * ScInOL1, scale-invariant online learning without tuning (Kempka, Kotlowski and Warmuth 2019): the
 * rule's source, its optimizer and its reference. docs/ALGORITHMS.md, section 3.
 */
package org.onlinekernels.rules.scinol1;

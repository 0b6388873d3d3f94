/**
 * ScInOL2 (Kempka, Kotlowski and Warmuth 2019), weights recomputed or stored, float, double or
 * mixed precision: the rule's source, its optimizer and its reference. docs/ALGORITHMS.md, section
 * 4.
 */
package org.onlinekernels.rules.scinol2;

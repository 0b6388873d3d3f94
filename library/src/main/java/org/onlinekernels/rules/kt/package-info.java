/**
 * Krichevsky-Trofimov coin betting per coordinate (Orabona and Pal 2016): the rule's source, its
 * optimizer and its reference. docs/ALGORITHMS.md, section 13.2.
 */
package org.onlinekernels.rules.kt;

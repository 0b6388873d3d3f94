/**
 * The papers' experiments, run by {@code bin/online-kernels experiment NAME --out DIR}: each writes
 * a README.md with the command that made it, CSV tables and PNG charts ({@link
 * org.onlinekernels.experiments.LineChart}, drawn by XChart). They are not part of the library: the
 * command line's module ({@code cli/}) keeps the plotting library out of the library's
 * dependencies; they ship in the command line's jar.
 */
package org.onlinekernels.experiments;

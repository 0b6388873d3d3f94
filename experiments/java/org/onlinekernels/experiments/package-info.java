/**
 * The papers' experiments, run by {@code Main experiment NAME --out DIR}: each writes a
 * README.md with the command that made it, CSV tables and SVG plots ({@link
 * org.onlinekernels.experiments.SvgPlot}, dependency-free). They live in the main source
 * tree rather than in test scope so that one documented {@code mvn -q compile exec:exec} command
 * reproduces each of them, with no plotting library on the classpath.
 */
package org.onlinekernels.experiments;

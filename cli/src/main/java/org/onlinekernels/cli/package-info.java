/**
 * The command line ({@code bin/online-kernels}): {@link org.onlinekernels.cli.Main} dispatches to
 * the commands train, predict, serve, demo and experiment; the readers of Vowpal Wabbit text and
 * feature hashing, label maps, model and state files, and the reports each command prints.
 * docs/CLI.md documents every option and exit code.
 */
package org.onlinekernels.cli;

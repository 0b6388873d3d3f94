/**
 * Thread scaling of the parallel trainers, one process per configuration: the hand-run harnesses
 * behind docs/parallel/README.md (lab/README.md says how to run each).
 */
package org.onlinekernels.lab.parallel;

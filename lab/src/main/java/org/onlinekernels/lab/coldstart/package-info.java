/**
 * The cold-start benchmark: fresh JVMs training one pass, against the scalar fallback and a
 * hand-written loop, and the time to steady state (bench-report/coldstart.md).
 */
package org.onlinekernels.lab.coldstart;

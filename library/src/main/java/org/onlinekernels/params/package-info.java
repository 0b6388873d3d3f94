/**
 * Each rule's parameters as a validated record ({@code ScInOLParams}, {@code AdaGradParams}, ...;
 * {@link org.onlinekernels.params.Box} for per-coordinate bounds): a bad value is refused at
 * construction with a message that names the parameter. Shared by the rules, their references, the
 * test kit and the command line.
 */
package org.onlinekernels.params;

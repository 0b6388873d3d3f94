/**
 * What the library's own pieces share instead of package-private reach: {@link
 * org.onlinekernels.optimizer.internal.StateAccess}, an optimizer's state as checkpoints, merges
 * and shared state reach it. Not for users; other modules may not import it (the build refuses).
 */
package org.onlinekernels.optimizer.internal;

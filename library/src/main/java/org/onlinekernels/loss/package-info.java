/** The losses of ALGORITHMS.md and their derivatives with respect to the prediction. */
package org.onlinekernels.loss;

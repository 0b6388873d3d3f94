/**
 * What every rule's generated forms share: the lane annotations a rule's source uses, the virtual
 * lanes that fix every dense summation order, lane math with a written-out vector form, and
 * per-thread scratch.
 */
package org.onlinekernels.kernel.lanes;

/**
 * What every rule's generated forms share at run time: the virtual lanes that fix every dense
 * summation order ({@code FloatVirtualLanes}), lane math with a written-out vector form, the rule's
 * forms as the engine calls them ({@link org.onlinekernels.kernel.lanes.RuleForms}, {@link
 * org.onlinekernels.kernel.lanes.RuleShape}), per-thread scratch and the record touch. The
 * annotations a rule's source is written with are in {@code org.onlinekernels.kernel.annotations}.
 */
package org.onlinekernels.kernel.lanes;

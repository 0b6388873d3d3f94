/**
 * The rule generator, run at build time before the library compiles: {@link
 * org.onlinekernels.codegen.RuleGenerator} reads each rule's source (a class annotated {@code
 * Lanes} in {@code org.onlinekernels.rules.<rule>}), checks it, and writes every form of the rule:
 * float, double and mixed precision; dense, sparse and fused rounds on planar or interleaved state;
 * plain Java and the Vector API; the public stateless kernel. It uses nothing of the library.
 */
package org.onlinekernels.codegen;

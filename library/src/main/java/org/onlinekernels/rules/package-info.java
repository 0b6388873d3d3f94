/**
 * The update rules, one package each ({@code rules.<rule>}: the rule's source, its optimizer and
 * its reference; every other form is generated from the source), and {@link
 * org.onlinekernels.rules.Rules}, the registry: every rule once, as the command line, the trainers,
 * the test kit and the benchmarks find it. docs/ADDING_A_RULE.md says how a rule is added.
 */
package org.onlinekernels.rules;

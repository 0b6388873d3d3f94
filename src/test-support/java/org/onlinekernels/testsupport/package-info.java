/**
 * Helpers of the jqwik suites, compiled into the tests of the modules that have such suites
 * (library, cli, property-tests; the parent POM's build-helper execution adds this directory as a
 * test source): {@link org.onlinekernels.testsupport.FuzzTries} scales a property's tries with
 * {@code -Djqwik.tries}, {@link org.onlinekernels.testsupport.Coverage} holds a generator's
 * coverage without failing by chance. Never part of a published jar.
 */
package org.onlinekernels.testsupport;

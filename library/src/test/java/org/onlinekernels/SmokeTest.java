package org.onlinekernels;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void runsOnJdk25() {
    assertTrue(Runtime.version().feature() >= 25);
  }
}

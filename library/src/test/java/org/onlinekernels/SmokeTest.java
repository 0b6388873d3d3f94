package org.onlinekernels;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
class SmokeTest {
  @Test void runsOnJdk25() { assertTrue(Runtime.version().feature() >= 25); }
}

package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VisibleTextTest {
  @Test
  void controlCharactersAndUnpairedSurrogatesAreEscapedAndNothingElse() {
    assertEquals("a\\u000d\\u000ab\\u001b[2J", VisibleText.of("a\r\nb\u001b[2J"));
    assertEquals("\\u0000 \\u0085", VisibleText.of("\u0000 \u0085"));
    assertEquals("x\\ud800y \\udc00", VisibleText.of("x\ud800y \udc00"));
    String plain = "caf\u00e9 \ud83d\ude00 \\u000d back\\slash";
    assertEquals(plain, VisibleText.of(plain));
  }

  @Test
  void escapingTwiceChangesNothingAndNullIsNamed() {
    String once = VisibleText.of("loss logistic\r");
    assertEquals(once, VisibleText.of(once));
    assertEquals("null", VisibleText.of(null));
  }
}

package org.onlinekernels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The manual's complete consumer POM (docs/USING.md) is {@code src/it/consumer/pom.xml}, byte for
 * byte: the file CI builds and tests against the installed artifacts ({@code src/it/run}) is the
 * one users copy.
 */
class ReadmeConsumerPomTest {
  @Test
  void theManualQuotesTheConsumerPomVerbatim() throws IOException {
    String pom = Files.readString(Path.of("../src/it/consumer/pom.xml"));
    String readme = Files.readString(Path.of("../docs/USING.md"));
    assertTrue(
        readme.contains("```xml\n" + pom + "```\n"),
        "docs/USING.md (Your project's POM) must quote src/it/consumer/pom.xml exactly, in one ```xml block");
  }
}

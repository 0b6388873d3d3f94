package org.onlinekernels.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.zip.ZipException;

/**
 * Plain or gzip input, told by gzip's two magic bytes whatever the file's name; gzip data is
 * decompressed strictly ({@link StrictGzipInputStream}: several members, but nothing after them,
 * and every corruption or truncation is a {@link ZipException} naming the source and the byte
 * offset). Shared by the data readers of the library and the command line.
 */
public final class GzipInput {
  private GzipInput() {}

  /**
   * The bytes of {@code in}: decompressed if it starts with gzip's magic bytes, else as they are.
   */
  public static InputStream open(InputStream in, String source) throws IOException {
    PushbackInputStream pin = new PushbackInputStream(in, 2);
    byte[] magic = new byte[2];
    int got = 0;
    while (got < 2) {
      int r = pin.read(magic, got, 2 - got);
      if (r < 0) {
        break;
      }
      got += r;
    }
    pin.unread(magic, 0, got);
    boolean gzip = got == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b;
    return gzip ? new StrictGzipInputStream(pin, source) : pin;
  }

  /**
   * What to report after {@code parseError} on {@code opened} (from {@link #open}): a damaged gzip
   * body can decompress to text that fails to parse before the member's CRC is reached, so the rest
   * is read, and damage found there is reported (with the parse error suppressed), not its symptom
   * ("bad label ':'").
   */
  public static IOException damageOr(InputStream opened, IOException parseError)
      throws IOException {
    if (opened instanceof StrictGzipInputStream) {
      try {
        opened.transferTo(OutputStream.nullOutputStream());
      } catch (ZipException damaged) {
        damaged.addSuppressed(parseError);
        return damaged;
      }
    }
    return parseError;
  }
}

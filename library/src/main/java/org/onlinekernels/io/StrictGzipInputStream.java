package org.onlinekernels.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Decompresses gzip data (RFC 1952), one or more concatenated members, and refuses what {@link
 * java.util.zip.GZIPInputStream} passes over in silence: bytes after a member that do not start
 * another member ({@code cat a.gz more.svm > c.gz}) are an error, not the end of the data. Every
 * error is a {@link ZipException} naming the source and the byte offset in the compressed file: a
 * corrupt deflate stream, a CRC32 or length mismatch in a member's trailer, a file that ends inside
 * a member, a header with an unknown method or reserved flags, trailing garbage.
 */
final class StrictGzipInputStream extends InputStream {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int RESERVED_FLAGS = 0xe0;

  private final InputStream in;
  private final String source;
  private final byte[] ibuf = new byte[1 << 16];
  private int ipos;
  private int ilen;

  /** Offset in the compressed input of {@code ibuf[0]}. */
  private long ibase;

  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private long memberOut;
  private long memberStart;
  private int members;
  private boolean inMember;
  private boolean done;

  /**
   * @param in compressed input, positioned at the first member's magic bytes
   */
  StrictGzipInputStream(InputStream in, String source) {
    this.in = in;
    this.source = source;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!done) {
      if (!inMember && !startMember()) {
        done = true;
        break;
      }
      int n;
      try {
        n = inflater.inflate(b, off, len);
      } catch (DataFormatException e) {
        throw error(
            "corrupt gzip data in the member starting at byte "
                + memberStart
                + " ("
                + e.getMessage()
                + ")");
      }
      if (n > 0) {
        crc.update(b, off, n);
        memberOut += n;
        return n;
      }
      if (inflater.finished()) {
        ipos = ilen - inflater.getRemaining();
        finishMember();
      } else if (inflater.needsDictionary()) {
        throw error(
            "corrupt gzip data in the member starting at byte "
                + memberStart
                + " (asks for a dictionary)");
      } else if (inflater.needsInput()) {
        if (ipos == ilen && !fill()) {
          throw error(
              "truncated gzip data: the file ends inside the member starting at byte "
                  + memberStart);
        }
        inflater.setInput(ibuf, ipos, ilen - ipos);
        ipos = ilen;
      }
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }

  /** Reads more compressed bytes into the (fully consumed) buffer; false at the end of input. */
  private boolean fill() throws IOException {
    ibase += ilen;
    ipos = 0;
    ilen = 0;
    int r = in.read(ibuf, 0, ibuf.length);
    if (r <= 0) {
      return false;
    }
    ilen = r;
    return true;
  }

  private long offset() {
    return ibase + ipos;
  }

  private int rawByte() throws IOException {
    if (ipos == ilen && !fill()) {
      return -1;
    }
    return ibuf[ipos++] & 0xff;
  }

  private int headerByte() throws IOException {
    int c = rawByte();
    if (c < 0) {
      throw error(
          "truncated gzip data: the file ends inside the header of the member starting at byte "
              + memberStart);
    }
    return c;
  }

  /** Parses a member header; false at a clean end of input after at least one member. */
  private boolean startMember() throws IOException {
    memberStart = offset();
    int id1 = rawByte();
    if (id1 < 0 && members > 0) {
      return false;
    }
    int id2 = id1 < 0 ? -1 : rawByte();
    if (id1 != 0x1f || id2 != 0x8b) {
      throw error(
          members == 0
              ? "not gzip data"
              : "unexpected data at byte "
                  + memberStart
                  + " after the gzip data (not another gzip member);"
                  + " the file was probably joined from a gzip file and another file");
    }
    if (headerByte() != 8) {
      throw error("gzip member at byte " + memberStart + " uses an unknown compression method");
    }
    int flags = headerByte();
    if ((flags & RESERVED_FLAGS) != 0) {
      throw error(
          "gzip member at byte " + memberStart + " has reserved header flags set: corrupt data");
    }
    for (int k = 0; k < 6; k++) { // MTIME, XFL, OS
      headerByte();
    }
    if ((flags & FEXTRA) != 0) {
      int xlen = headerByte() | headerByte() << 8;
      for (int k = 0; k < xlen; k++) {
        headerByte();
      }
    }
    if ((flags & FNAME) != 0) {
      while (headerByte() != 0) {
        // skip the zero-terminated original file name
      }
    }
    if ((flags & FCOMMENT) != 0) {
      while (headerByte() != 0) {
        // skip the zero-terminated comment
      }
    }
    if ((flags & FHCRC) != 0) {
      headerByte();
      headerByte();
    }
    inflater.reset();
    crc.reset();
    memberOut = 0;
    members++;
    inMember = true;
    return true;
  }

  private void finishMember() throws IOException {
    long wantCrc = 0;
    long wantSize = 0;
    for (int k = 0; k < 4; k++) {
      wantCrc |= (long) trailerByte() << (8 * k);
    }
    for (int k = 0; k < 4; k++) {
      wantSize |= (long) trailerByte() << (8 * k);
    }
    if (wantCrc != crc.getValue() || wantSize != (memberOut & 0xffffffffL)) {
      throw error(
          "corrupt gzip data: the CRC or length check of the member starting at byte "
              + memberStart
              + " fails (the data decompressed, but not to what was compressed)");
    }
    inMember = false;
  }

  private int trailerByte() throws IOException {
    int c = rawByte();
    if (c < 0) {
      throw error(
          "truncated gzip data: the file ends inside the trailer of the member starting at byte "
              + memberStart);
    }
    return c;
  }

  private ZipException error(String problem) {
    return new ZipException(source + ": " + problem);
  }
}

package org.onlinekernels.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Crash-safe whole-file writes, shared by model files and checkpoints: the content goes to a
 * temporary file in the target's directory, is forced to the device, and is renamed over the target
 * atomically; the directory is forced last. A crash, a kill or a full disk at any point leaves the
 * target holding either its previous content or the new content, never a mixture; two concurrent
 * writers leave one of the two complete files.
 *
 * <p>The temporary file is named {@code .okw-<random>.tmp} (short, whatever the target's name, so a
 * target name of any legal length works) and is held under an exclusive {@link FileLock} while it
 * is written. Temporary files of writers that died (a kill, a power cut) are therefore
 * recognisable: their lock is free. Each write removes such leftovers (unlocked and older than ten
 * seconds) from its directory. Errors name the target, never the temporary file, and give the
 * operating system's reason.
 *
 * <p>A symbolic link is followed: the file it leads to is replaced (in that file's directory), the
 * link stays. A target that is neither a regular file nor a directory (a device such as {@code
 * /dev/null}, a FIFO, a socket) is refused: renaming over it would replace it by a regular file.
 */
public final class AtomicFiles {
  private static final String TEMP_PREFIX = ".okw-";
  private static final String TEMP_SUFFIX = ".tmp";

  /** A temporary file is only removed when unlocked and at least this old. */
  static final long ABANDONED_AFTER_MILLIS = 10_000;

  /** Follows at most this many symbolic links, as Linux does. */
  private static final int MAX_LINKS = 40;

  private AtomicFiles() {}

  /**
   * What a streamed {@link #write(Path, Content, Runnable)} writes: the file's bytes, written to
   * {@code out} in order, so that a large file is never held in memory whole.
   */
  @FunctionalInterface
  public interface Content {
    /**
     * Writes the file's content to {@code out} (buffered; flushed, forced and closed by the
     * caller).
     *
     * @throws IOException if writing fails; the target is then unchanged
     */
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Replaces {@code target} by {@code content} crash-safely.
   *
   * @throws IOException naming {@code target} and the reason; {@code target} is then unchanged
   */
  public static void write(Path target, byte[] content) throws IOException {
    write(target, content, null);
  }

  /**
   * {@link #write(Path, byte[])} with a hook run after the temporary file is on the device and
   * before it replaces the target: a seam for tests that simulate a crash there ({@code null}
   * normally). An exception from the hook propagates; the target is then unchanged.
   */
  public static void write(Path target, byte[] content, Runnable beforeRename) throws IOException {
    write(target, out -> out.write(content), beforeRename);
  }

  /**
   * Replaces {@code target} by what {@code content} writes, crash-safely and streamed: memory does
   * not grow with the file. {@code beforeRename} as in {@link #write(Path, byte[], Runnable)}.
   *
   * @throws IllegalArgumentException if {@code target} or {@code content} is null (nothing written)
   * @throws IOException naming {@code target} and the reason; {@code target} is then unchanged
   */
  // The file lock is a resource held for the write and never referenced: javac's "try" lint.
  @SuppressWarnings("try")
  public static void write(Path target, Content content, Runnable beforeRename) throws IOException {
    if (target == null || content == null) {
      throw new IllegalArgumentException("target and content must not be null");
    }
    Path abs = replaced(target);
    Path dir = abs.getParent();
    removeAbandonedTemporaries(dir);
    Path tmp;
    try {
      tmp = Files.createTempFile(dir, TEMP_PREFIX, TEMP_SUFFIX);
    } catch (IOException e) {
      throw failure(target, e);
    }
    try {
      try (FileChannel ch =
              FileChannel.open(
                  tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
          FileLock ignored = ch.lock()) {
        // Not closed here: closing the stream would close the channel before its force.
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
        content.writeTo(out);
        out.flush();
        ch.force(true);
        if (beforeRename != null) {
          beforeRename.run();
        }
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw failure(target, e);
    } catch (RuntimeException | Error e) {
      deleteQuietly(tmp);
      throw e;
    }
    forceDirectory(dir);
  }

  /**
   * Checks, without touching {@code target}, that a later {@link #write} there can create its
   * temporary file: the directory exists and is writable. For commands that should fail before a
   * long computation rather than after it.
   *
   * @throws IOException naming {@code target} and the reason
   */
  public static void checkWritable(Path target) throws IOException {
    Path abs = replaced(target);
    Path dir = abs.getParent();
    if (!Files.isDirectory(dir)) {
      throw new IOException("cannot write " + target + ": no such directory " + dir);
    }
    try {
      Files.delete(Files.createTempFile(dir, TEMP_PREFIX, TEMP_SUFFIX));
    } catch (IOException e) {
      throw failure(target, e);
    }
    if (Files.exists(abs) && !Files.isWritable(abs) && !Files.isWritable(dir)) {
      throw new IOException("cannot write " + target + ": permission denied");
    }
  }

  /**
   * The absolute path a write to {@code target} replaces: {@code target}, or the file its symbolic
   * links lead to.
   *
   * @throws IOException naming {@code target} when it is a directory, a device, a FIFO or a socket,
   *     or its links do not end
   */
  private static Path replaced(Path target) throws IOException {
    Path p = target.toAbsolutePath();
    for (int links = 0; Files.isSymbolicLink(p); links++) {
      if (links == MAX_LINKS) {
        throw new IOException(
            "cannot write " + target + ": more than " + MAX_LINKS + " symbolic links (a loop?)");
      }
      try {
        p = p.resolveSibling(Files.readSymbolicLink(p));
      } catch (IOException e) {
        throw failure(target, e);
      }
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return p; // a new file (a dangling link: the file it names is created)
    } catch (IOException e) {
      throw failure(target, e);
    }
    if (a.isDirectory()) {
      throw new IOException("cannot write " + target + ": it is a directory");
    }
    if (!a.isRegularFile()) {
      throw new IOException(
          "cannot write "
              + target
              + ": it is "
              + kind(p)
              + ", not a regular file (the file is written whole and renamed over the old one,"
              + " which would replace it); give the path of a regular file");
    }
    return p;
  }

  /** What kind of special file {@code p} is, as far as the platform tells. */
  private static String kind(Path p) {
    try {
      int type = ((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & 0xF000;
      switch (type) {
        case 0x2000:
          return "a character device";
        case 0x6000:
          return "a block device";
        case 0x1000:
          return "a FIFO (named pipe)";
        case 0xC000:
          return "a socket";
        default:
          break;
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // not a Unix file system: the generic word below
    }
    return "a special file (a device, a FIFO or a socket)";
  }

  /** The operating system's reason for {@code e}, without the paths it names. */
  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f) {
      return f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  private static IOException failure(Path target, IOException e) {
    return new IOException("cannot write " + target + ": " + reason(e), e);
  }

  /**
   * Deletes {@code .okw-*.tmp} files in {@code dir} whose lock is free: their writer is gone (a
   * live writer, in this JVM or another, holds the lock until its rename).
   */
  static void removeAbandonedTemporaries(Path dir) {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
      for (Path p : s) {
        if (Files.getLastModifiedTime(p).toMillis()
            > System.currentTimeMillis() - ABANDONED_AFTER_MILLIS) {
          continue; // perhaps created a moment ago by a writer that has not locked it yet
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE);
            FileLock lock = ch.tryLock()) {
          if (lock != null) {
            Files.deleteIfExists(p);
          }
        } catch (OverlappingFileLockException | IOException busyOrGone) {
          // Held by a writer in this JVM, or already renamed away: not ours to remove.
        }
      }
    } catch (IOException | SecurityException ignored) {
      // Cleaning up is a courtesy; the write itself reports real problems.
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // The original failure is the one to report.
    }
  }

  /**
   * Makes the rename itself durable; not every platform can open a directory, which is harmless.
   */
  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // Windows cannot open directories; the rename is still atomic there.
    }
  }
}

/**
 * Files: the LIBSVM/svmlight reader ({@link org.onlinekernels.io.LibSvmReader}) and its errors,
 * gzip input that refuses damaged members, byte-level line and number parsing, reading a file for
 * an application with one error line per failure ({@link org.onlinekernels.io.DataFiles}), and
 * crash-safe writes (temporary file, fsync, atomic rename: {@link
 * org.onlinekernels.io.AtomicFiles}), and text from a file made safe for a one-line message ({@link
 * org.onlinekernels.io.VisibleText}).
 */
package org.onlinekernels.io;

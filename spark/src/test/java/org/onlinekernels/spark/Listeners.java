package org.onlinekernels.spark;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TCP sockets processes listen on, read from Linux's {@code /proc} (the table {@code ss -ltnp}
 * prints): each process's socket inodes from {@code /proc/PID/fd}, their local addresses from
 * {@code /proc/net/tcp} and {@code tcp6}. For the tests that check nothing listens beyond the
 * loopback address.
 */
final class Listeners {
  private Listeners() {}

  /** Whether this system has the tables (Linux). */
  static boolean available() {
    return Files.isReadable(Path.of("/proc/net/tcp"));
  }

  /** {@code address:port} of every listening socket of {@code pids}, keyed by pid. */
  static Map<Long, List<String>> of(Set<Long> pids) throws IOException {
    Map<String, String> listening = new HashMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path t = Path.of(table);
      if (!Files.isReadable(t)) {
        continue;
      }
      List<String> lines = Files.readAllLines(t); // read once: the table changes as it is read
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A")) { // state LISTEN
          listening.put(f[9], f[1]);
        }
      }
    }
    Map<Long, List<String>> out = new HashMap<>();
    for (long pid : pids) {
      Set<String> inodes = new HashSet<>();
      try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
        for (Path fd : fds) {
          try {
            String target = Files.readSymbolicLink(fd).toString();
            if (target.startsWith("socket:[")) {
              inodes.add(target.substring(8, target.length() - 1));
            }
          } catch (IOException e) {
            // closed meanwhile
          }
        }
      } catch (IOException e) {
        continue; // the process has ended
      }
      List<String> mine = new ArrayList<>();
      for (String inode : inodes) {
        if (listening.containsKey(inode)) {
          mine.add(listening.get(inode));
        }
      }
      out.put(pid, mine);
    }
    return out;
  }

  /**
   * Whether a {@code /proc/net/tcp*} local address ({@code HEX:PORT}) is a loopback address:
   * 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104 (the IPv4 and IPv6 words stored little-endian).
   */
  static boolean loopback(String hexAddress) {
    String ip = hexAddress.substring(0, hexAddress.indexOf(':'));
    if (ip.length() == 8) {
      return ip.endsWith("7F");
    }
    return ip.equals("00000000000000000000000001000000")
        || (ip.startsWith("0000000000000000FFFF0000") && ip.endsWith("7F"));
  }
}

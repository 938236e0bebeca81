package dev.sieve.frontier.state;

import dev.sieve.files.Fsync;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The files of a checkpoint, written durably and checked when read: a MANIFEST of each file's
 * size and CRC32C, counters as properties, fsync of files and directories.
 */
final class StateFiles {
  static final String MANIFEST = "MANIFEST";

  private StateFiles() {}

  static void writeManifest(Path cp, List<String> names) throws IOException {
    StringBuilder manifest = new StringBuilder();
    for (String name : names) {
      Path file = cp.resolve(name);
      Fsync.file(file);
      manifest.append(name).append(' ').append(Files.size(file)).append(' ').append(crc(file)).append('\n');
    }
    Files.writeString(cp.resolve(MANIFEST), manifest, StandardCharsets.UTF_8);
    Fsync.file(cp.resolve(MANIFEST));
  }

  static void verifyManifest(Path cp) throws IOException {
    Path manifest = cp.resolve(MANIFEST);
    if (!Files.exists(manifest)) {
      throw new IOException("no MANIFEST: the checkpoint is incomplete");
    }
    List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
    if (lines.size() != 3) {
      throw new IOException(manifest + " is damaged: " + lines.size() + " lines, 3 expected");
    }
    for (String line : lines) {
      String[] parts = line.split(" ");
      if (parts.length != 3) {
        throw new IOException(manifest + " is damaged: '" + line + "'");
      }
      Path file = cp.resolve(parts[0]);
      if (!Files.exists(file)) {
        throw new IOException(file + " is missing (or " + manifest + " is damaged)");
      }
      long expectedSize;
      long expectedCrc;
      try {
        expectedSize = Long.parseLong(parts[1]);
        expectedCrc = Long.parseLong(parts[2]);
      } catch (NumberFormatException e) {
        throw new IOException(manifest + " is damaged: '" + line + "'");
      }
      long size = Files.size(file);
      if (size != expectedSize) {
        throw new IOException(file + " has " + size + " bytes, the manifest says " + expectedSize + " (truncated?)");
      }
      if (crc(file) != expectedCrc) {
        throw new IOException(file + " fails its checksum: the file is damaged");
      }
    }
  }

  static long crc(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  static void writeCounters(Path file, Map<String, Long> counters) throws IOException {
    Properties properties = new Properties();
    counters.forEach((k, v) -> properties.setProperty(k, Long.toString(v)));
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(out, "Crawl counters at this checkpoint");
    }
  }

  static Map<String, Long> readCounters(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    }
    Map<String, Long> counters = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      try {
        counters.put(key, Long.parseLong(properties.getProperty(key)));
      } catch (NumberFormatException e) {
        throw new IOException(file + ": counter " + key + " is not a number");
      }
    }
    return counters;
  }


  static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (var walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

package dev.sieve.settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A file of secrets (tokens, a private key) named by an option: read only when no one but its
 * owner may read it (on file systems with POSIX permissions), its blank lines and {@code #}
 * comments left out. The
 * messages name the option and the file, never a line's content.
 */
public final class SecretFile {
  private SecretFile() {}

  /**
   * The file's lines that are neither blank nor comments, stripped, each with its 1-based line
   * number in {@link Line#number()}.
   *
   * @throws IllegalArgumentException naming {@code option} and the file when it does not exist,
   *     cannot be read, or may be read by its group or others
   */
  public static List<Line> read(String option, Path file) {
    requireOwnerOnly(option, file);
    try {
      List<Line> out = new ArrayList<>();
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).strip();
        if (!line.isEmpty() && !line.startsWith("#")) {
          out.add(new Line(i + 1, line));
        }
      }
      return out;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(option + " (" + file + ") does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " (" + file + ") cannot be read: "
          + e.getClass().getSimpleName());
    }
  }

  /**
   * Checks that no one but its owner may read {@code file} (on file systems with POSIX
   * permissions; elsewhere it passes), before a secret is read from it.
   *
   * @throws IllegalArgumentException naming {@code option} and the file when it does not exist,
   *     its permissions cannot be read, or its group or others may read it
   */
  public static void requireOwnerOnly(String option, Path file) {
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    if (posix == null) {
      return;
    }
    Set<PosixFilePermission> permissions;
    try {
      permissions = posix.readAttributes().permissions();
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(option + " (" + file + ") does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " (" + file + ") cannot be read: "
          + e.getClass().getSimpleName());
    }
    if (permissions.contains(PosixFilePermission.GROUP_READ)
        || permissions.contains(PosixFilePermission.OTHERS_READ)) {
      throw new IllegalArgumentException(option + " (" + file + ") may be read by its group"
          + " or others: make it readable by its owner only (chmod 600)");
    }
  }

  /** A line holding a secret: print its number, never its text. */
  public record Line(int number, String text) {
    @Override
    public String toString() {
      return "line " + number;
    }
  }
}

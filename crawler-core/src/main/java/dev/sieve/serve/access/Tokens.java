package dev.sieve.serve.access;

import dev.sieve.settings.SecretFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The bearer tokens of a token file ({@code read TOKEN} or {@code write TOKEN} a line), kept as
 * SHA-256 digests. A presented token is hashed and compared with every digest in constant time,
 * so neither its length nor the position of a first wrong byte shows in the time taken.
 */
final class Tokens {
  private static final String OPTION = "--token-file";

  private record Entry(Role role, byte[] digest) {}

  private final List<Entry> entries;

  private Tokens(List<Entry> entries) {
    this.entries = entries;
  }

  /**
   * The tokens of {@code file}.
   *
   * @throws IllegalArgumentException naming --token-file, the file and the line (never its text)
   *     when the file is unreadable, readable by others, holds no token or a malformed line
   */
  static Tokens load(Path file) {
    List<Entry> entries = new ArrayList<>();
    for (SecretFile.Line line : SecretFile.read(OPTION, file)) {
      String[] words = line.text().split("\\s+");
      Role role = words.length != 2 ? null : switch (words[0].toLowerCase(Locale.ROOT)) {
        case "read" -> Role.READ;
        case "write" -> Role.WRITE;
        default -> null;
      };
      if (role == null) {
        throw new IllegalArgumentException(OPTION + " (" + file + ") " + line
            + " must be 'read TOKEN' or 'write TOKEN'");
      }
      entries.add(new Entry(role, digest(words[1])));
    }
    if (entries.isEmpty()) {
      throw new IllegalArgumentException(OPTION + " (" + file + ") holds no token");
    }
    return new Tokens(List.copyOf(entries));
  }

  /** The role of {@code token}, or empty when it is none of the file's. */
  Optional<Role> role(String token) {
    byte[] presented = digest(token);
    Role found = null;
    for (Entry entry : entries) {
      // Every entry is compared, whatever matched before: the time does not tell which did.
      if (MessageDigest.isEqual(presented, entry.digest())
          && (found == null || entry.role() == Role.WRITE)) {
        found = entry.role();
      }
    }
    return Optional.ofNullable(found);
  }

  /**
   * The token of an {@code Authorization} header value ({@code Bearer TOKEN}, the scheme in any
   * case), or null when there is none.
   */
  static String bearer(String header) {
    if (header == null) {
      return null;
    }
    String value = header.strip();
    if (value.length() <= 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return value.substring(7).strip();
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}

package dev.sieve.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import okhttp3.HttpUrl;

/**
 * The {@code Authorization} value to send to each origin, read from an auth file: one {@code
 * https://host[:port] basic user:password} or {@code … bearer TOKEN} line per origin, {@code #}
 * comments and blank lines ignored. Immutable. Messages name the file and the line, never a
 * secret.
 */
final class Credentials {
  static final Credentials NONE = new Credentials(Map.of());

  /** Origin ({@code scheme://host:port}, port always given) to header value. */
  private final Map<String, String> byOrigin;

  private Credentials(Map<String, String> byOrigin) {
    this.byOrigin = Map.copyOf(byOrigin);
  }

  /**
   * Reads {@code file}, which group and others must not be able to read.
   *
   * @throws IllegalArgumentException starting {@code authFile (FILE)}: unreadable, readable by
   *     others, or a bad line (by number)
   */
  static Credentials read(Path file) {
    String name = "authFile (" + file + ")";
    List<String> lines;
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ)) {
        throw new IllegalArgumentException(name + " is readable by group or others ("
            + PosixFilePermissions.toString(permissions) + "): it holds credentials; chmod 600 it");
      }
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (UnsupportedOperationException e) {
      throw new IllegalArgumentException(name + " is on a file system without POSIX permissions:"
          + " who may read it cannot be checked");
    } catch (IOException e) {
      throw new IllegalArgumentException(name + " cannot be read: " + e);
    }
    Map<String, String> byOrigin = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = name + " line " + (i + 1);
      String[] fields = line.split("\\s+", 3);
      if (fields.length != 3) {
        throw new IllegalArgumentException(where + " is not 'ORIGIN basic USER:PASSWORD' or"
            + " 'ORIGIN bearer TOKEN'");
      }
      String origin = origin(fields[0]);
      if (origin == null) {
        throw new IllegalArgumentException(where + ": " + fields[0] + " is not an origin such as"
            + " https://host or https://host:8443 (no path, no user)");
      }
      String value = switch (fields[1].toLowerCase(Locale.ROOT)) {
        case "basic" -> basic(fields[2], where);
        case "bearer" -> "Bearer " + fields[2];
        default -> throw new IllegalArgumentException(where + ": the scheme (" + fields[1]
            + ") must be basic or bearer");
      };
      if (byOrigin.put(origin, value) != null) {
        throw new IllegalArgumentException(where + ": " + origin + " is given twice");
      }
    }
    return new Credentials(byOrigin);
  }

  private static String basic(String userPassword, String where) {
    if (userPassword.indexOf(':') < 1) {
      throw new IllegalArgumentException(where + ": basic takes USER:PASSWORD");
    }
    return "Basic " + Base64.getEncoder()
        .encodeToString(userPassword.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code scheme://host:port} of an origin as written, or null if it is not one. */
  private static String origin(String written) {
    HttpUrl url = HttpUrl.parse(written);
    if (url == null || !url.encodedUsername().isEmpty() || !url.encodedPassword().isEmpty()
        || !"/".equals(url.encodedPath()) || url.encodedQuery() != null || url.fragment() != null) {
      return null;
    }
    return key(url);
  }

  private static String key(HttpUrl url) {
    return url.scheme() + "://" + url.host() + ":" + url.port();
  }

  /** The {@code Authorization} value for {@code url}'s origin, or null when it has none. */
  String authorization(HttpUrl url) {
    return byOrigin.isEmpty() ? null : byOrigin.get(key(url));
  }

  /** How many origins have credentials. */
  int size() {
    return byOrigin.size();
  }
}

package dev.sieve.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Cookie;

/**
 * Cookies in the Netscape {@code cookies.txt} format curl and wget read and write: per line
 * {@code domain, include-subdomains, path, secure, expires (Unix seconds, 0 for a session
 * cookie), name, value}, tab-separated; {@code #HttpOnly_} before the domain marks an HttpOnly
 * cookie; other lines starting with {@code #}, and blank ones, are comments.
 */
final class CookieFile {
  private CookieFile() {}

  /**
   * The cookies of {@code file}, expired ones included (the jar drops them).
   *
   * @throws IllegalArgumentException starting {@code cookieFile (FILE)}: unreadable, or a bad
   *     line (by number; its value is not shown)
   */
  static List<Cookie> read(Path file) {
    String name = "cookieFile (" + file + ")";
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(name + " cannot be read: " + e);
    }
    List<Cookie> cookies = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      boolean httpOnly = line.startsWith("#HttpOnly_");
      if (httpOnly) {
        line = line.substring("#HttpOnly_".length());
      } else if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Cookie cookie = parse(line.split("\t", -1), httpOnly);
      if (cookie == null) {
        throw new IllegalArgumentException(name + " line " + (i + 1) + " is not a cookies.txt line:"
            + " domain, TRUE/FALSE, path, TRUE/FALSE, expiry seconds, name, value, tab-separated");
      }
      cookies.add(cookie);
    }
    return cookies;
  }

  private static Cookie parse(String[] fields, boolean httpOnly) {
    if (fields.length != 7) {
      return null;
    }
    try {
      String domain = fields[0].startsWith(".") ? fields[0].substring(1) : fields[0];
      Cookie.Builder cookie = new Cookie.Builder().name(fields[5]).value(fields[6]).path(fields[2]);
      if (bool(fields[1])) {
        cookie.domain(domain);
      } else {
        cookie.hostOnlyDomain(domain);
      }
      if (bool(fields[3])) {
        cookie.secure();
      }
      if (httpOnly) {
        cookie.httpOnly();
      }
      long expires = Long.parseLong(fields[4].strip());
      if (expires != 0) {
        cookie.expiresAt(expires * 1000);
      }
      return cookie.build();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean bool(String field) {
    if (field.equalsIgnoreCase("TRUE")) {
      return true;
    }
    if (field.equalsIgnoreCase("FALSE")) {
      return false;
    }
    throw new IllegalArgumentException(field);
  }

  /** Writes {@code cookies} to {@code file} whole or not at all, readable by its owner only. */
  static void write(Path file, List<Cookie> cookies) throws IOException {
    StringBuilder text = new StringBuilder("# Netscape HTTP Cookie File: the crawl's cookie jar\n");
    for (Cookie cookie : cookies) {
      text.append(cookie.httpOnly() ? "#HttpOnly_" : "")
          .append(cookie.hostOnly() ? "" : ".").append(cookie.domain()).append('\t')
          .append(cookie.hostOnly() ? "FALSE" : "TRUE").append('\t')
          .append(cookie.path()).append('\t')
          .append(cookie.secure() ? "TRUE" : "FALSE").append('\t')
          .append(cookie.persistent() ? Math.max(1, cookie.expiresAt() / 1000) : 0).append('\t')
          .append(cookie.name()).append('\t')
          .append(cookie.value()).append('\n');
    }
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(temp);
    Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(temp, text, StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}

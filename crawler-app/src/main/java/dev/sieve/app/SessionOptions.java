package dev.sieve.app;

import dev.sieve.session.SessionSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for what requests carry beyond themselves: the cookie jar, headers of
 * one's own and credentials per origin.
 */
final class SessionOptions {
  @Option(names = "--no-cookies",
      description = "Keep no cookie jar: send no cookies, ignore Set-Cookie (a jar per crawl is kept by default).")
  boolean noCookies;

  @Setting("cookieFile")
  @Option(names = "--cookies", paramLabel = "FILE",
      description = "Start the cookie jar with a Netscape cookies.txt, as curl and wget read it (default: none).")
  Path cookieFile;

  @Setting("header")
  @Option(names = "--header", paramLabel = "'NAME: VALUE'",
      description = "Send this header with every request; repeatable. Host, Cookie, Authorization,"
          + " User-Agent, Accept-Encoding and hop-by-hop headers are refused (default: none).")
  List<String> headers = new ArrayList<>();

  @Setting("authFile")
  @Option(names = "--auth-file", paramLabel = "FILE",
      description = "Credentials per origin, one 'https://host[:port] basic USER:PASSWORD' or"
          + " '... bearer TOKEN' line each, sent to that origin only; the file must not be"
          + " readable by group or others (default: none).")
  Path authFile;

  /**
   * The session settings these options give.
   *
   * @throws IllegalArgumentException naming the setting, for a refused header or a bad file
   */
  SessionSettings settings() {
    SessionSettings.Builder session = SessionSettings.builder()
        .cookies(!noCookies)
        .cookieFile(cookieFile)
        .authFile(authFile);
    headers.forEach(session::header);
    return session.build();
  }
}

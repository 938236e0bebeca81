package dev.sieve.serve;

import java.io.IOException;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;

/**
 * The baseline of {@code bench serve}: the same service, whose crawls remember every URL put in
 * them in an exact set of strings instead of a Sieve, as the URL Frontier reference service keeps
 * every URL. For measuring only: in memory (no state directory), never wrong, never forgetting.
 */
public final class ExactSetBaseline {
  private ExactSetBaseline() {}

  /**
   * Starts the baseline service with {@code settings} (their Sieve size is unused: give a small
   * {@code expectedUrls}).
   *
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the settings name a state directory
   */
  public static FrontierServer start(ServeSettings settings) throws IOException {
    if (settings.stateDir != null) {
      throw new IllegalArgumentException("the exact-set baseline runs in memory only");
    }
    return FrontierServer.start(settings, Clock.systemUTC(), null, RpcListener.NONE,
        new Crawls(settings, sieve -> new ExactKeys()));
  }

  /** Every key ever admitted, as a string. */
  private static final class ExactKeys implements SeenKeys {
    private final Set<String> keys = new HashSet<>();

    @Override
    public boolean admit(String key) {
      return keys.add(key);
    }

    @Override
    public boolean mightHaveSeen(String key) {
      return keys.contains(key);
    }
  }
}

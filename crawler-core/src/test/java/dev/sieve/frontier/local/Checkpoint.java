package dev.sieve.frontier.local;

import dev.sieve.frontier.Sieve;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A frontier's saved state and its Sieve's filter, as a checkpoint takes them, for tests. */
record Checkpoint(byte[] filter, byte[] state) {
  /** Saves {@code live} and its {@code sieve}, paused, and journals what follows to {@code next}. */
  static Checkpoint take(LocalFrontier live, Sieve sieve, Path next) throws Exception {
    ByteArrayOutputStream filter = new ByteArrayOutputStream();
    ByteArrayOutputStream state = new ByteArrayOutputStream();
    live.state().paused(() -> {
      sieve.writeFilter(filter);
      live.state().writeState(new DataOutputStream(state));
      live.state().journalTo(next);
      return null;
    });
    return new Checkpoint(filter.toByteArray(), state.toByteArray());
  }

  /** The Sieve saved. */
  Sieve sieve() throws IOException {
    return Sieve.over(dev.sieve.bloom.MembershipFilter.readFrom(new ByteArrayInputStream(filter)),
        1e-6, w -> {});
  }

  /** Restores the frontier saved with {@code builder}, replaying {@code journals} after it. */
  LocalFrontier restore(LocalFrontierBuilder builder, List<Path> journals) throws IOException {
    return builder.restore(new DataInputStream(new ByteArrayInputStream(state)), journals);
  }
}

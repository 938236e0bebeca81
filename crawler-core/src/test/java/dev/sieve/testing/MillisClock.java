package dev.sieve.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/** A UTC clock whose epoch milliseconds a test supplies (ticking, recording, fixed). */
public final class MillisClock extends Clock {
  private final LongSupplier millis;

  public MillisClock(LongSupplier millis) {
    this.millis = millis;
  }

  @Override
  public long millis() {
    return millis.getAsLong();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}

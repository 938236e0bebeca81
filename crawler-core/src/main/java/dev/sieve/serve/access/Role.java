package dev.sieve.serve.access;

/** What a bearer token may do: read the service's state, or change it too. */
public enum Role {
  /** The listing and counting calls (ListQueues, GetStats…), which change nothing. */
  READ,
  /** Every call. */
  WRITE;

  /** Whether a token of this role may make a call that needs {@code needed}. */
  boolean allows(Role needed) {
    return this == WRITE || needed == READ;
  }
}

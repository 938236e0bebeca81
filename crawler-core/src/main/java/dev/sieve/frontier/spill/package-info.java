/**
 * Pending URLs held compactly and, past a memory budget, spilled to shared append-only segment
 * files ({@link dev.sieve.frontier.spill.PendingStore}, one {@link
 * dev.sieve.frontier.spill.PendingQueue} per politeness key), with the chunk and entry formats
 * they use and the state a checkpoint saves of them. Uses the frontier's value types ({@code
 * Lease}, {@code LastFetch}) and {@code files}; it knows nothing of crawls, leases' timing or the
 * Sieve. Not thread-safe: the owning frontier's lock guards it.
 */
package dev.sieve.frontier.spill;

package dev.sieve.frontier;

/**
 * A frontier's counters at one moment: its queues, what it dropped, and its seen filter. A
 * frontier that does not keep a counter (a URL Frontier service has no host budget) reports 0.
 *
 * @param pending URLs waiting in host queues
 * @param inFlight leases taken and not yet given back
 * @param hosts politeness keys seen
 * @param droppedByHostBudget new URLs not queued because their host had reached its budget
 * @param droppedBySkippedHost URLs dropped because their host was skipped
 * @param droppedByFullFilter new URLs refused because the seen filter was full (a fixed-size
 *     cuckoo filter)
 * @param seenLayers layers of the seen filter: more than 1 once a scalable filter has grown
 * @param approximateSeen the seen filter's estimate of distinct URLs seen
 * @param seenFpp the seen filter's estimated current false-positive rate
 * @param capacityWarnings capacity warnings logged by the seen filter
 * @param seenFilterBits bits of the seen filter, all layers (0 when it is a service's)
 * @param pendingMemoryBytes memory the pending URLs and per-host records take, estimated (0 when
 *     they are not in this process)
 * @param pendingDiskBytes bytes of spill files on disk (0 without any)
 * @param storageOutages times the frontier's shared storage (Redis) could not be reached and the
 *     calls waited for it (0 where it is in this process)
 */
public record FrontierStats(
    long pending,
    long inFlight,
    int hosts,
    long droppedByHostBudget,
    long droppedBySkippedHost,
    long droppedByFullFilter,
    int seenLayers,
    long approximateSeen,
    double seenFpp,
    int capacityWarnings,
    long seenFilterBits,
    long pendingMemoryBytes,
    long pendingDiskBytes,
    long storageOutages) {

  /** Whether nothing is pending or in flight, by these counters. */
  public boolean finished() {
    return pending <= 0 && inFlight <= 0;
  }

  /** {@link #pendingMemoryBytes} per pending URL (0 when none is pending), for reporting. */
  public double bytesPerPendingUrl() {
    return pending == 0 ? 0 : (double) pendingMemoryBytes / pending;
  }
}

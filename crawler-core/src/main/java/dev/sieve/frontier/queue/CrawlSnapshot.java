package dev.sieve.frontier.queue;

import java.util.Map;

/**
 * One crawl ID's totals at one moment, for monitoring (the app's metrics endpoint reads them at
 * scrape time): what GetStats reports for the crawl, as plain numbers.
 *
 * @param crawlId the crawl ID
 * @param pending URLs pending in its queues, in flight included
 * @param inFlight URLs leased and not yet expired, completed or rescheduled
 * @param queues queues of the crawl
 * @param activeQueues queues with anything pending
 * @param completed URLs completed (known, never refetched)
 * @param estimatedUrls the Sieve's estimate of distinct URLs it saw
 * @param estimatedFpp the Sieve's estimated current false-positive rate
 * @param counters the crawl's event counters by name ({@code put.discovered.created}, {@code
 *     get.leased}…), as GetStats reports them without the {@code crawl.} prefix
 */
public record CrawlSnapshot(String crawlId, long pending, long inFlight, long queues,
    long activeQueues, long completed, long estimatedUrls, double estimatedFpp,
    Map<String, Long> counters) {}

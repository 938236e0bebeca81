package dev.sieve.frontier.queue;

/**
 * What the engine needs to create a crawl: the URLs each crawl's Sieve is sized for, its target
 * false-positive rate, and the delay between two productions of a queue when its client set none.
 * Validated by the settings they come from (the service's options).
 *
 * @param expectedUrls distinct URLs each crawl's Sieve is sized for
 * @param falsePositiveRate the Sieve's target false-positive rate
 * @param queueDelaySeconds seconds between two productions of a queue, unless set per queue
 */
public record QueueSettings(long expectedUrls, double falsePositiveRate, int queueDelaySeconds) {}

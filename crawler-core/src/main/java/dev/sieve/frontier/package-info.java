/**
 * The crawl frontier's contract and its one factory. {@link dev.sieve.frontier.Frontier} is the
 * queue operations and host controls, its counters one {@link dev.sieve.frontier.FrontierStats}
 * value; a frontier that keeps state or connections has a {@link
 * dev.sieve.frontier.FrontierLifecycle} besides. {@link dev.sieve.frontier.Frontiers#open} makes
 * every frontier from {@link dev.sieve.frontier.FrontierSettings}, which say where it lives:
 * memory ({@code local}), a state directory ({@code state}), Redis ({@code redis}) or a URL
 * Frontier service ({@code urlfrontier}). The {@link dev.sieve.frontier.Sieve} is the seen filter
 * every local frontier puts in front of its queues. {@link dev.sieve.frontier.FrontierTime} is
 * time as the engine counts it (milliseconds) and the one place the URL Frontier API's seconds
 * are converted.
 */
package dev.sieve.frontier;

/**
 * A local frontier kept in a state directory so a crawl resumes after a stop or a crash: its
 * checkpoints and journals ({@link dev.sieve.frontier.state.CrawlState}), the timer that writes
 * them ({@code Checkpointer}), and their lifecycle as the crawl sees it ({@link
 * dev.sieve.frontier.state.KeptState}). Opened only through {@link
 * dev.sieve.frontier.Frontiers#open}; nothing here calls back into it.
 */
package dev.sieve.frontier.state;

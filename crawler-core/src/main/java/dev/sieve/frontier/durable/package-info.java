/**
 * The engine's state directory: {@link dev.sieve.frontier.durable.DurableStore}, the in-process
 * store whose every change is journaled (group commit, records framed by {@link
 * dev.sieve.files.RecordLog}) before the store says it is durable, a checksummed checkpoint of
 * every crawl written periodically, and a restart that loads the newest checkpoint and replays the
 * journals after it. Only the store is public: the faces change it and wait for {@link
 * dev.sieve.frontier.queue.FrontierStore#afterDurable}; they build no records.
 */
package dev.sieve.frontier.durable;

/**
 * The engine's state directory: every change journaled (group commit, records framed by {@link
 * dev.sieve.files.RecordLog}) before it is answered, a checksummed checkpoint of every crawl
 * written periodically, and a restart that loads the newest checkpoint and replays the journals
 * after it.
 */
package dev.sieve.frontier.durable;

/**
 * Files that must survive a crash: the exclusive lock of a state or archive directory ({@link
 * dev.sieve.files.DirectoryLock}), forcing writes and renames to disk ({@link
 * dev.sieve.files.Fsync}), and the checksummed append-only record log of the journals ({@link
 * dev.sieve.files.RecordLog}). The JDK only; used by the frontier, the crawl's state and WARC.
 */
package dev.sieve.files;

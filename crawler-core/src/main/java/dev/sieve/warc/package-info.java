/**
 * A crawl's WARC/1.1 archive ({@link dev.sieve.warc.WarcArchive}): request, response and revisit
 * records gzipped a member each, written to {@code .open} files renamed when closed, torn files
 * cut back to their last whole record at start, and a CDXJ index beside each closed file. Uses
 * {@code fetch} for what an exchange was, {@code files} for the directory lock, {@code settings},
 * and jwarc for the files' first records; nothing of the crawl loop.
 */
package dev.sieve.warc;

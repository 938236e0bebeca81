/**
 * The membership filters behind the Sieve ({@link dev.sieve.bloom.MembershipFilter}): classic,
 * cache-blocked, counting, cuckoo and scalable Bloom filters, their sizing and their checksummed
 * file format.
 */
package dev.sieve.bloom;

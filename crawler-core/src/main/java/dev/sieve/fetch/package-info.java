/**
 * One HTTP(S) GET per call, its outcome a {@link dev.sieve.fetch.FetchResult} (network and HTTP
 * failures are results, not exceptions): {@link dev.sieve.fetch.Fetcher}, configured once by its
 * {@link dev.sieve.fetch.FetcherBuilder} from {@link dev.sieve.fetch.FetchSettings}, with the
 * address policy, proxies, TLS trust, DNS cache and kept connections behind it.
 */
package dev.sieve.fetch;

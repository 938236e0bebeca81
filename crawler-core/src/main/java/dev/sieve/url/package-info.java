/**
 * URLs as values: {@link dev.sieve.url.Url}, an absolute normalized http(s) URL that only its
 * parser and link resolution make (web input that is not one is empty, never an exception), and
 * the crawl's scope over them.
 */
package dev.sieve.url;

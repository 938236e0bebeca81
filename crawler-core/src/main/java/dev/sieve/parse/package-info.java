/**
 * The links of an HTML page: its charset sniffed as Jsoup does, a streaming tokenizer over its
 * bytes ({@link dev.sieve.parse.StreamLinkScanner}) checked against a Jsoup DOM scanner ({@link
 * dev.sieve.parse.DomLinkScanner}), and the resolved, counted outlinks ({@link
 * dev.sieve.parse.LinkExtractor}, {@link dev.sieve.parse.ParsedPage}). Uses {@code url} and Jsoup;
 * never throws for what the web sends.
 */
package dev.sieve.parse;

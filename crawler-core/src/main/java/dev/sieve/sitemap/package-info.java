/**
 * Sitemaps of a crawl: which to read ({@link dev.sieve.sitemap.SitemapSettings}), the ones of each
 * authority still to fetch ({@link dev.sieve.sitemap.SitemapQueue}), reading one file, XML, text or
 * gzipped, with crawler-commons ({@link dev.sieve.sitemap.SitemapReader}), and the record of those
 * read that a resumed crawl keeps ({@link dev.sieve.sitemap.ReadSitemaps}). Uses {@code url} and
 * {@code settings} only; fetching is the crawl's.
 */
package dev.sieve.sitemap;

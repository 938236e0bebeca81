/**
 * What a crawl sends as a browser would within one session: the cookies sites set (a jar per
 * crawl, RFC 6265, kept in checkpoints), headers of the user's own, and credentials per origin.
 * Plugged into the fetcher as one request step ({@link dev.sieve.session.WebSession}); no value of
 * a cookie, header or credential is ever logged.
 */
package dev.sieve.session;

/**
 * robots.txt (RFC 9309): fetching an origin's file through a {@code fetch} fetcher and turning the
 * outcome into rules ({@link dev.sieve.robots.RobotsLoader}), parsing them with crawler-commons
 * ({@link dev.sieve.robots.RobotsParser}), a bounded cache of each origin's rules ({@link
 * dev.sieve.robots.RobotsCache}) and the verdict on one URL ({@link
 * dev.sieve.robots.RobotsPolicy#check}). Uses {@code fetch}, {@code url} and {@code settings}.
 */
package dev.sieve.robots;

/**
 * Which links a crawl follows: its scope relative to the seeds and the limits that keep it out of
 * traps ({@link dev.sieve.scope.ScopeSettings}, which also sizes {@code parse}'s link extractor),
 * and the include and exclude patterns matched against each URL ({@link
 * dev.sieve.scope.UrlRules}). Uses {@code url}, {@code parse} and {@code settings}; no fetching
 * and no state.
 */
package dev.sieve.scope;

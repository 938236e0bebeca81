/**
 * The crawl as a client of a URL Frontier service ({@link
 * dev.sieve.frontier.urlfrontier.ServiceFrontier}): pushes, leases and host controls translated
 * to the service's gRPC calls.
 */
package dev.sieve.frontier.urlfrontier;

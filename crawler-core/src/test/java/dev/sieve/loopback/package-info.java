/**
 * Server processes started on 127.0.0.1 for the bench commands and the tests: {@link
 * dev.sieve.loopback.LoopbackRedis} ({@code redis-server}, one or a three-master cluster) and {@link
 * dev.sieve.loopback.LoopbackNginx}. Each runs without root from a temporary directory on free
 * ports, and closing it stops it; every failure to start is an {@code IOException} naming the
 * server and the cause. In crawler-core's test sources (its test-jar), whence the tests of
 * crawler-core and crawler-app take it; crawler-bench's jar carries its classes for the benchmarks.
 */
package dev.sieve.loopback;

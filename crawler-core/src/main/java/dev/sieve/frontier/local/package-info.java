/**
 * The in-process frontier ({@link dev.sieve.frontier.local.LocalFrontier}): per-host queues
 * scheduled politely behind the Sieve, pending URLs spilled past a memory budget, its state saved
 * and journaled for {@link dev.sieve.frontier.state}.
 */
package dev.sieve.frontier.local;

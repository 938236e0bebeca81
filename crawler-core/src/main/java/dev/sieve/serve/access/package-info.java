/**
 * Who may reach {@code serve} and what they may do: TLS from PEM files, bearer tokens with a
 * read or write role, the networks allowed to talk plaintext, and the rule that refuses to listen
 * beyond loopback without them. Secrets never reach a log or a message.
 */
package dev.sieve.serve.access;

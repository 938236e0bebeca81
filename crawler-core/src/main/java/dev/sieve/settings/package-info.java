/**
 * What every settings builder shares: checks whose messages name the option ({@link
 * dev.sieve.settings.Check}) and files of secrets read only when their owner alone may read
 * them ({@link dev.sieve.settings.SecretFile}). The JDK only; every other package may use it.
 */
package dev.sieve.settings;

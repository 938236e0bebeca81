/**
 * Quantities as people read them in messages and tables: sizes in binary and decimal units
 * ({@link dev.sieve.units.Units}). The JDK only; the command line and the benchmarks use it.
 */
package dev.sieve.units;

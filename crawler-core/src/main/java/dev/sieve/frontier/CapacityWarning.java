package dev.sieve.frontier;

/**
 * The Sieve's estimate of distinct URLs seen has passed a multiple of its capacity, so its
 * false-positive rate is above target and some new URLs may be wrongly dropped as seen.
 *
 * @param threshold the multiple of capacity crossed: 1.0, 1.5, 2.0, 3.0, 4.0 and so on
 * @param estimatedCount the estimated number of distinct URLs seen
 * @param capacity the expected number of URLs the filter was sized for
 * @param estimatedFpp the estimated current false-positive rate
 * @param targetFpp the false-positive rate the filter was sized for
 */
public record CapacityWarning(
    double threshold, long estimatedCount, long capacity, double estimatedFpp, double targetFpp) {}

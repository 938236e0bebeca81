/**
 * What keeps one client from taking the service down: {@code serve}'s limits ({@link
 * dev.sieve.serve.limits.ServeLimits}) and how a call past one is refused, counted and logged
 * ({@link dev.sieve.serve.limits.Rejections}, {@link dev.sieve.serve.limits.CallLimits}), and
 * how a stream left idle is ended ({@link dev.sieve.serve.limits.IdleStreams}).
 */
package dev.sieve.serve.limits;

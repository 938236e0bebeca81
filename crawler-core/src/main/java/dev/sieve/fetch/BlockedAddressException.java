package dev.sieve.fetch;

import java.net.UnknownHostException;

/** A host resolved only to addresses the {@link AddressPolicy} refuses. */
final class BlockedAddressException extends UnknownHostException {
  BlockedAddressException(String message) {
    super(message);
  }
}

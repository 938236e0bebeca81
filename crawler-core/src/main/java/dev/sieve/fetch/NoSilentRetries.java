package dev.sieve.fetch;

import java.io.IOException;
import okhttp3.Headers;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * A network interceptor that hides {@code Retry-After} from OkHttp, which would otherwise act on
 * it behind the crawler's back: it repeats a 503 whose {@code Retry-After} is 0 at once (not
 * governed by {@code retryOnConnectionFailure}) and throws {@link NumberFormatException} for
 * delta-seconds of 2³¹ or more. The value moves to {@link #HEADER}, read by the {@link Fetcher}.
 */
final class NoSilentRetries implements Interceptor {
  /** Where a response's {@code Retry-After} value is kept. */
  static final String HEADER = "Sieve-Retry-After";
  private static final String RETRY_AFTER = "Retry-After";

  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    String retryAfter = response.header(RETRY_AFTER);
    if (retryAfter == null) {
      return response;
    }
    // Lenient like OkHttp's own reading of the wire: junk in the value must not throw here.
    Headers headers =
        response.headers().newBuilder().removeAll(RETRY_AFTER).addUnsafeNonAscii(HEADER, retryAfter).build();
    return response.newBuilder().headers(headers).build();
  }
}

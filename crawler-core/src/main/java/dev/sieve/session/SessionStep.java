package dev.sieve.session;

import java.io.IOException;
import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The request step of a {@link WebSession}: adds the user's headers, the {@code Authorization} of
 * the request's own origin (a redirect to another origin is a request of its own, and gets none),
 * and the cookies the jar holds for the URL; then stores the cookies the response sets.
 */
final class SessionStep implements Interceptor {
  private final List<String[]> headers;
  private final Credentials credentials;
  /** Null when cookies are off. */
  private final CookieStore jar;

  SessionStep(List<String[]> headers, Credentials credentials, CookieStore jar) {
    this.headers = headers;
    this.credentials = credentials;
    this.jar = jar;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    HttpUrl url = request.url();
    Request.Builder sent = request.newBuilder();
    for (String[] header : headers) {
      sent.header(header[0], header[1]);
    }
    String authorization = credentials.authorization(url);
    if (authorization != null) {
      sent.header("Authorization", authorization);
    }
    String cookies = jar == null ? null : jar.header(url);
    if (cookies != null) {
      sent.header("Cookie", cookies);
    }
    Response response = chain.proceed(sent.build());
    if (jar != null) {
      List<String> setCookies = response.headers("Set-Cookie");
      if (!setCookies.isEmpty()) {
        jar.receive(url, setCookies);
      }
    }
    return response;
  }
}

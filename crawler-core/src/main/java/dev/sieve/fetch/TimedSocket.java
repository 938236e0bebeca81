package dev.sieve.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * A plain socket that keeps its read timeout ({@code SO_TIMEOUT}) when told to read without one:
 * {@code setSoTimeout(0)} sets the read timeout it was made with, any other value that value. With
 * these sockets an OkHttp client runs with its own read timeout at 0, so that its reads are bounded
 * by the kernel's timeout alone: OkHttp also puts each read under an Okio {@code AsyncTimeout},
 * which wakes Okio's watchdog thread at every read of a lone connection (~10 wake-ups per page of a
 * one-host crawl, two context switches each). A read that times out throws {@link
 * java.net.SocketTimeoutException} as before. Only for HTTP/1.1 connections: an HTTP/2
 * connection's reader must wait without a timeout.
 */
final class TimedSocket extends Socket {
  private final int readTimeoutMillis;

  private TimedSocket(int readTimeoutMillis) {
    this.readTimeoutMillis = readTimeoutMillis;
  }

  /** Makes unconnected sockets whose read timeout without one is {@code readTimeoutMillis}. */
  static SocketFactory factory(int readTimeoutMillis) {
    if (readTimeoutMillis <= 0) {
      throw new IllegalArgumentException(
          "readTimeoutMillis (" + readTimeoutMillis + ") must be positive");
    }
    return new SocketFactory() {
      @Override
      public Socket createSocket() throws SocketException {
        TimedSocket socket = new TimedSocket(readTimeoutMillis);
        socket.setSoTimeout(0);
        return socket;
      }

      @Override
      public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
      }

      @Override
      public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
          throws IOException {
        return connected(new InetSocketAddress(host, port),
            new InetSocketAddress(localHost, localPort));
      }

      @Override
      public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
      }

      @Override
      public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
          int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port),
            new InetSocketAddress(localAddress, localPort));
      }

      private Socket connected(InetSocketAddress target, InetSocketAddress local)
          throws IOException {
        Socket socket = createSocket();
        if (local != null) {
          socket.bind(local);
        }
        socket.connect(target);
        return socket;
      }
    };
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    super.setSoTimeout(timeout == 0 ? readTimeoutMillis : timeout);
  }
}

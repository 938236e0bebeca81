package dev.sieve.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import javax.net.SocketFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Sockets to an {@code https://} proxy: TLS to the proxy itself (OkHttp speaks plain HTTP to a
 * proxy), its certificate checked against the proxy's host name and the crawl's trust anchors.
 * Whatever OkHttp then sends, a request or a CONNECT and a TLS session of its own with the
 * server, goes inside.
 */
final class TlsProxySockets {
  private TlsProxySockets() {}

  /** Unconnected sockets that speak TLS to {@code proxy} once OkHttp connects them. */
  static SocketFactory factory(ProxyServer proxy, X509TrustManager trust) {
    SSLSocketFactory tls = TlsSettings.context(trust).getSocketFactory();
    return new SocketFactory() {
      @Override
      public Socket createSocket() throws IOException {
        SSLSocket socket = (SSLSocket) tls.createSocket();
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!com.google.common.net.InetAddresses.isInetAddress(proxy.host())) {
          parameters.setServerNames(List.of(new SNIHostName(proxy.host())));
        }
        socket.setSSLParameters(parameters);
        return socket;
      }

      @Override
      public Socket createSocket(String host, int port) throws IOException {
        throw unsupported();
      }

      @Override
      public Socket createSocket(String host, int port, InetAddress local, int localPort)
          throws IOException {
        throw unsupported();
      }

      @Override
      public Socket createSocket(InetAddress host, int port) throws IOException {
        throw unsupported();
      }

      @Override
      public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort)
          throws IOException {
        throw unsupported();
      }
    };
  }

  /** OkHttp connects the sockets it makes itself: the connected forms are never called. */
  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("TlsProxySockets makes unconnected sockets only");
  }
}

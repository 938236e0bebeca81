package dev.sieve.fetch;

import com.google.common.net.InetAddresses;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import javax.net.SocketFactory;

/**
 * A socket whose {@link #connect} goes through a SOCKS5 proxy (RFC 1928), authenticating with
 * username and password (RFC 1929) when the proxy is given them. The JDK's own SOCKS client takes
 * credentials only from the process-wide {@code Authenticator} or system properties; this one
 * takes them from its {@link ProxyServer}, so each fetcher has its own and nothing global is set.
 * The target's host name is sent as written (the proxy resolves it), an IP address as an address.
 * A proxy that cannot be reached or refuses the credentials fails with {@link ProxyFailure}; a
 * target the proxy cannot reach fails as a direct connect would ({@link ConnectException}).
 */
final class Socks5Socket extends Socket {
  private static final int VERSION = 5;
  private static final int NO_AUTH = 0;
  private static final int USER_PASSWORD = 2;
  private static final int NO_ACCEPTABLE = 0xFF;
  private static final String[] REPLIES = {"succeeded", "general failure",
      "connection not allowed by ruleset", "network unreachable", "host unreachable",
      "connection refused", "TTL expired", "command not supported", "address type not supported"};

  private final ProxyServer proxy;

  Socks5Socket(ProxyServer proxy) {
    this.proxy = proxy;
  }

  /** Makes unconnected {@link Socks5Socket}s for OkHttp, which connects them itself. */
  static SocketFactory factory(ProxyServer proxy) {
    return new SocketFactory() {
      @Override
      public Socket createSocket() {
        return new Socks5Socket(proxy);
      }

      @Override
      public Socket createSocket(String host, int port) throws IOException {
        return connected(InetSocketAddress.createUnresolved(host, port));
      }

      @Override
      public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
          throws IOException {
        return connected(InetSocketAddress.createUnresolved(host, port));
      }

      @Override
      public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
      }

      @Override
      public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
          int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port));
      }

      private Socket connected(InetSocketAddress target) throws IOException {
        Socket socket = new Socks5Socket(proxy);
        socket.connect(target);
        return socket;
      }
    };
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    InetSocketAddress target = (InetSocketAddress) endpoint;
    InetSocketAddress at = new InetSocketAddress(proxy.host(), proxy.port());
    if (at.isUnresolved()) {
      throw ProxyFailure.unreachable("unknown proxy host");
    }
    try {
      super.connect(at, timeout);
    } catch (SocketTimeoutException e) {
      throw ProxyFailure.unreachable("connect timed out");
    } catch (ConnectException e) {
      throw ProxyFailure.unreachable(String.valueOf(e.getMessage()).toLowerCase().contains("refused")
          ? "connection refused" : "connect failed");
    }
    int soTimeout = getSoTimeout();
    if (timeout > 0) {
      setSoTimeout(timeout);
    }
    try {
      handshake(target.getHostString(), target.getPort());
    } catch (SocketTimeoutException e) {
      throw ProxyFailure.unreachable("read timed out");
    } catch (EOFException e) {
      throw ProxyFailure.unreachable("connection closed during the SOCKS5 handshake");
    } finally {
      if (!isClosed()) {
        setSoTimeout(soTimeout);
      }
    }
  }

  private void handshake(String host, int port) throws IOException {
    OutputStream out = getOutputStream();
    DataInputStream in = new DataInputStream(getInputStream());
    out.write(proxy.hasCredentials()
        ? new byte[] {VERSION, 2, NO_AUTH, USER_PASSWORD}
        : new byte[] {VERSION, 1, NO_AUTH});
    out.flush();
    int version = in.readUnsignedByte();
    int method = in.readUnsignedByte();
    if (version != VERSION) {
      throw ProxyFailure.unreachable("not a SOCKS5 proxy");
    }
    if (method == USER_PASSWORD && proxy.hasCredentials()) {
      authenticate(out, in);
    } else if (method == NO_ACCEPTABLE) {
      throw ProxyFailure.authRequired(proxy.hasCredentials()
          ? "proxy accepts no authentication method offered" : "proxy wants credentials");
    } else if (method != NO_AUTH) {
      throw ProxyFailure.unreachable("proxy chose an unknown authentication method " + method);
    }
    out.write(connectRequest(host, port));
    out.flush();
    if (in.readUnsignedByte() != VERSION) {
      throw ProxyFailure.unreachable("not a SOCKS5 proxy");
    }
    int reply = in.readUnsignedByte();
    in.readUnsignedByte(); // reserved
    int addressType = in.readUnsignedByte();
    int addressLength = switch (addressType) {
      case 1 -> 4;
      case 4 -> 16;
      case 3 -> in.readUnsignedByte();
      default -> throw ProxyFailure.unreachable("bad SOCKS5 reply address type " + addressType);
    };
    in.readFully(new byte[addressLength + 2]); // bound address and port: not needed
    if (reply != 0) {
      String what = reply < REPLIES.length ? REPLIES[reply] : "reply " + reply;
      close();
      // The proxy's answer about the target: a failure of the target, as a direct connect's.
      throw new ConnectException(what + " (SOCKS5 proxy " + proxy + ")");
    }
  }

  private void authenticate(OutputStream out, DataInputStream in) throws IOException {
    byte[] user = proxy.user().getBytes(StandardCharsets.UTF_8);
    byte[] password = proxy.password().getBytes(StandardCharsets.UTF_8);
    if (user.length > 255 || password.length > 255) {
      throw ProxyFailure.authRequired("SOCKS5 user name or password longer than 255 bytes");
    }
    byte[] request = new byte[3 + user.length + password.length];
    request[0] = 1;
    request[1] = (byte) user.length;
    System.arraycopy(user, 0, request, 2, user.length);
    request[2 + user.length] = (byte) password.length;
    System.arraycopy(password, 0, request, 3 + user.length, password.length);
    out.write(request);
    out.flush();
    in.readUnsignedByte(); // sub-negotiation version
    if (in.readUnsignedByte() != 0) {
      throw ProxyFailure.authRequired("proxy refused the credentials");
    }
  }

  private static byte[] connectRequest(String host, int port) {
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    byte[] address;
    int type;
    if (InetAddresses.isInetAddress(bare)) {
      address = InetAddresses.forString(bare).getAddress();
      type = address.length == 4 ? 1 : 4;
    } else {
      address = bare.getBytes(StandardCharsets.US_ASCII);
      type = 3;
    }
    int prefix = type == 3 ? 1 : 0;
    byte[] request = new byte[4 + prefix + address.length + 2];
    request[0] = VERSION;
    request[1] = 1; // CONNECT
    request[3] = (byte) type;
    if (type == 3) {
      request[4] = (byte) address.length;
    }
    System.arraycopy(address, 0, request, 4 + prefix, address.length);
    request[request.length - 2] = (byte) (port >>> 8);
    request[request.length - 1] = (byte) port;
    return request;
  }
}

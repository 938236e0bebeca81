package dev.sieve.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that accepts every connection and never answers: requests to it end in read
 * timeouts. Counts the connections it accepted.
 */
public final class SilentServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private final Thread acceptor;

  private SilentServer() throws IOException {
    socket = new ServerSocket(0, 1024, InetAddress.getByName("127.0.0.1"));
    acceptor = new Thread(this::accept, "silent-server-" + socket.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public static SilentServer start() throws IOException {
    return new SilentServer();
  }

  public int port() {
    return socket.getLocalPort();
  }

  /** {@code http://127.0.0.1:port} followed by {@code path}. */
  public String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  /** Connections accepted so far. */
  public int connections() {
    return accepted.get();
  }

  /** A loopback port nothing listens on (bound, then released): connections to it are refused. */
  public static int refusingPort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return probe.getLocalPort();
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        held.add(socket.accept());
        accepted.incrementAndGet();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : held) {
      s.close();
    }
  }
}

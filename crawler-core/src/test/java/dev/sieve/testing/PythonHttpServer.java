package dev.sieve.testing;

import dev.sieve.loopback.LoopbackNginx;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Python's {@code http.server} serving a directory on a free 127.0.0.1 port, started for a test:
 * as it ships ({@code python3 -m http.server}: HTTP/1.0, closing each connection after its answer
 * without a {@code Connection} field), or as an HTTP/1.0 server that keeps connections ({@code
 * http10_keep_alive.py}: {@code Connection: keep-alive}). Under CI ({@code CI=true}) a missing
 * python3 fails the test; elsewhere it skips it, saying why.
 */
public final class PythonHttpServer implements AutoCloseable {
  private final Process process;
  private final int port;

  private PythonHttpServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** {@code python3 -m http.server} serving {@code root}; its log goes to {@code root}'s parent. */
  public static PythonHttpServer closingEachConnection(Path root)
      throws IOException, InterruptedException {
    int port = LoopbackNginx.freePort();
    return start(List.of("python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory",
        root.toString(), Integer.toString(port)), root, port);
  }

  /** An HTTP/1.0 server answering {@code Connection: keep-alive}, serving {@code root}. */
  public static PythonHttpServer keepingConnections(Path root)
      throws IOException, InterruptedException {
    int port = LoopbackNginx.freePort();
    Path script;
    try {
      script = Path.of(PythonHttpServer.class.getResource("http10_keep_alive.py").toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    return start(List.of("python3", script.toString(), root.toString(), Integer.toString(port)),
        root, port);
  }

  private static PythonHttpServer start(List<String> command, Path root, int port)
      throws IOException, InterruptedException {
    LocalProxy.require("python3", "python3");
    Path log = root.resolveSibling(root.getFileName() + "-python.log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    PythonHttpServer server = new PythonHttpServer(process, port);
    try {
      LocalProxy.awaitPort(process, port);
    } catch (IOException e) {
      server.close();
      throw new IOException("python3 http.server did not start: " + e.getMessage());
    }
    return server;
  }

  /** {@code http://127.0.0.1:PORT} followed by {@code path}. */
  public String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}

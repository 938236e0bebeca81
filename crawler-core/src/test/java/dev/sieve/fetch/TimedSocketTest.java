package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

class TimedSocketTest {
  @Test
  void setSoTimeout_zero_keepsTheReadTimeoutMadeWith() throws IOException {
    try (Socket socket = TimedSocket.factory(700).createSocket()) {
      assertThat(socket.getSoTimeout()).isEqualTo(700);

      socket.setSoTimeout(0);
      assertThat(socket.getSoTimeout()).isEqualTo(700);

      socket.setSoTimeout(1);
      assertThat(socket.getSoTimeout()).isEqualTo(1);
    }
  }

  @Test
  void read_peerSilent_timesOutAfterTheReadTimeout() throws IOException {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    try (ServerSocket server = new ServerSocket(0, 1, loopback);
        Socket socket = TimedSocket.factory(200).createSocket(loopback, server.getLocalPort());
        Socket accepted = server.accept()) {
      socket.setSoTimeout(0);

      assertThatThrownBy(() -> socket.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(accepted.isConnected()).isTrue();
    }
  }

  @Test
  void factory_readTimeoutNotPositive_refused() {
    assertThatThrownBy(() -> TimedSocket.factory(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("readTimeoutMillis (0) must be positive");
  }
}

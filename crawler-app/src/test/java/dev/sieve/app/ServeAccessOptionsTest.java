package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.TestCa;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve} refuses, before listening, to be reachable beyond loopback unprotected and to
 * read a token file or TLS key others may read: exit 2 and one line naming the options.
 */
class ServeAccessOptionsTest {
  @TempDir Path dir;

  @Test
  void hostBeyondLoopback_withoutTlsAndTokens_exits2NamingTheOptions() {
    String err = refused("--host", "0.0.0.0");
    assertThat(err).isEqualTo("serve: --host 0.0.0.0 is not a loopback address: listening there"
        + " needs TLS and tokens (--tls-cert with --tls-key, and --token-file), or"
        + " --allow-insecure-from CIDR[,CIDR...] naming the networks allowed to connect without"
        + " them\n");
  }

  @Test
  void metricsHostBeyondLoopback_withoutTlsAndTokens_exits2NamingIt() {
    assertThat(refused("--port", "0", "--metrics-port", "1", "--metrics-host", "0.0.0.0"))
        .startsWith("serve: --metrics-host 0.0.0.0 is not a loopback address:");
  }

  @Test
  void tokenFileReadableByOthers_exits2WithoutItsContent() throws IOException {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, "write s3cr3t-token\n");
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
    String err = refused("--port", "0", "--token-file", tokens.toString());
    assertThat(err).isEqualTo("serve: --token-file (" + tokens + ") may be read by its group or"
        + " others: make it readable by its owner only (chmod 600)\n");
  }

  @Test
  void tlsKeyReadableByGroup_exits2NamingTheFileAndTheCause() throws Exception {
    TestCa.Issued cert = TestCa.create(dir).issue("serve");
    Files.setPosixFilePermissions(cert.key(), PosixFilePermissions.fromString("rw-r-----"));
    assertThat(refused("--port", "0", "--tls-cert", cert.cert().toString(),
        "--tls-key", cert.key().toString()))
        .isEqualTo("serve: --tls-key (" + cert.key() + ") may be read by its group or others:"
            + " make it readable by its owner only (chmod 600)\n");
  }

  @Test
  void malformedTokenLine_exits2NamingTheLineNotItsText() throws IOException {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, "# ops\nwrite ok-token\nadmin s3cr3t-token\n");
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
    assertThat(refused("--port", "0", "--token-file", tokens.toString()))
        .isEqualTo("serve: --token-file (" + tokens + ") line 3 must be 'read TOKEN' or"
            + " 'write TOKEN'\n");
  }

  @Test
  void badCidrOrLoneCertificate_exits2NamingTheOption() {
    assertThat(refused("--port", "0", "--allow-insecure-from", "10.0.0.0/33"))
        .startsWith("serve: --allow-insecure-from (10.0.0.0/33) must be CIDR networks");
    assertThat(refused("--port", "0", "--tls-cert", dir.resolve("cert.pem").toString()))
        .isEqualTo("serve: --tls-cert and --tls-key go together: give both\n");
    assertThat(refused("--port", "0", "--tls-cert", dir.resolve("cert.pem").toString(),
        "--tls-key", dir.resolve("key.pem").toString()))
        .isEqualTo("serve: --tls-cert (" + dir.resolve("cert.pem") + ") does not exist\n");
  }

  /** What {@code serve ARGS} prints on standard error, asserting it exits 2. */
  private static String refused(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      String[] command = new String[args.length + 1];
      command[0] = "serve";
      System.arraycopy(args, 0, command, 1, args.length);
      assertThat(Main.commandLine().execute(command))
          .isEqualTo(CommandLine.ExitCode.USAGE);
    } finally {
      System.setErr(stderr);
    }
    return err.toString(StandardCharsets.UTF_8);
  }
}

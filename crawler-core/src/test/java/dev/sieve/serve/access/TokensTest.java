package dev.sieve.serve.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensTest {
  @TempDir Path dir;

  @Test
  void role_ofEachTokenOfTheFile_noneForOthers() throws Exception {
    Tokens tokens = Tokens.load(file("# comment\n read  r1 \nwrite w1\n\nWRITE w2\n"));
    assertThat(tokens.role("r1")).contains(Role.READ);
    assertThat(tokens.role("w1")).contains(Role.WRITE);
    assertThat(tokens.role("w2")).contains(Role.WRITE);
    assertThat(tokens.role("w")).isEmpty();
    assertThat(tokens.role("w11")).isEmpty();
    assertThat(tokens.role("")).isEqualTo(Optional.empty());
  }

  @Test
  void bearer_takesTheTokenOfABearerHeaderOnly() {
    assertThat(Tokens.bearer("Bearer abc")).isEqualTo("abc");
    assertThat(Tokens.bearer("bearer  abc ")).isEqualTo("abc");
    assertThat(Tokens.bearer("Basic abc")).isNull();
    assertThat(Tokens.bearer("Bearer ")).isNull();
    assertThat(Tokens.bearer(null)).isNull();
  }

  @Test
  void load_emptyFile_isRefused() throws Exception {
    Path empty = file("# nothing\n");
    assertThatThrownBy(() -> Tokens.load(empty))
        .hasMessage("--token-file (" + empty + ") holds no token");
  }

  @Test
  void rpcRoles_onlyTheLookingCallsAreRead() {
    assertThat(RpcRoles.needed("ListURLs")).isEqualTo(Role.READ);
    assertThat(RpcRoles.needed("GetStats")).isEqualTo(Role.READ);
    assertThat(RpcRoles.needed("GetURLs")).as("leases").isEqualTo(Role.WRITE);
    assertThat(RpcRoles.needed("DeleteCrawl")).isEqualTo(Role.WRITE);
    assertThat(RpcRoles.needed("PutDiscovered")).isEqualTo(Role.WRITE);
    assertThat(RpcRoles.needed("PurgeURLs")).isEqualTo(Role.WRITE);
    assertThat(RpcRoles.needed("SomeFutureCall")).isEqualTo(Role.WRITE);
    assertThat(Role.READ.allows(Role.WRITE)).isFalse();
    assertThat(Role.WRITE.allows(Role.READ)).isTrue();
  }

  private Path file(String text) throws Exception {
    Path file = dir.resolve("tokens");
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}

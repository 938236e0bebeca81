"""Serves the files of a directory as an HTTP/1.0 server that keeps connections: every answer's
status line says HTTP/1.0 and its header says Connection: keep-alive, as servers did before
HTTP/1.1, and the connection stays open for the next request.

Usage: python3 http10_keep_alive.py DIRECTORY PORT (listens on 127.0.0.1)."""
import functools
import http.server
import sys


class KeepAliveHttp10(http.server.SimpleHTTPRequestHandler):
    # HTTP/1.1 inside, so that http.server keeps the connection; HTTP/1.0 on the status line.
    protocol_version = "HTTP/1.1"

    def send_response_only(self, code, message=None):
        self.protocol_version = "HTTP/1.0"
        try:
            super().send_response_only(code, message)
        finally:
            self.protocol_version = "HTTP/1.1"

    def end_headers(self):
        self.send_header("Connection", "keep-alive")
        super().end_headers()


if __name__ == "__main__":
    directory, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(KeepAliveHttp10, directory=directory)
    http.server.ThreadingHTTPServer(("127.0.0.1", port), handler).serve_forever()

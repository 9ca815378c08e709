#!/usr/bin/env python3
"""A loopback HTTP(S) server for the pull tests that can misbehave on purpose.

  serve.py --root DIR --port-file FILE [--tls CERT KEY]

Binds 127.0.0.1 on a free port and writes the port to FILE. Paths:
  /files/NAME       DIR/NAME (200), 404 when missing
  /slow/NAME        DIR/NAME after 1.5 s (to show that hosts are fetched concurrently)
  /redirect/NAME    302 to /files/NAME
  /loop             302 to itself, forever
  /to-file          302 to file:///etc/passwd (a scheme redirects must not reach)
  /404, /500        those statuses
  /html             200 with an HTML page (the wrong content)
  /huge             1 GiB streamed without Content-Length
  /huge-length      Content-Length: 1 GiB, then a trickle
  /gzip-bomb        64 MiB of spaces, gzip-compressed (about 64 KiB on the wire)
  /stall            headers and 10 bytes, then silence for 120 s
  /drip             one byte every 0.4 s for a minute (slow, but never stalled)
"""
import argparse
import gzip
import os
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    root = "."
    bomb = None

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body=b"", ctype="application/json", extra=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def serve_file(self, name):
        path = os.path.join(self.root, os.path.basename(name))
        if not os.path.isfile(path):
            return self.send(404, b"not found", "text/plain")
        with open(path, "rb") as f:
            self.send(200, f.read())

    def stream(self, total, chunk=1 << 20, length=None, delay=0.0):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        block = b" " * chunk
        sent = 0
        try:
            while sent < total:
                self.wfile.write(block[: min(chunk, total - sent)])
                sent += chunk
                if delay:
                    self.wfile.flush()
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        p = self.path.split("?")[0]
        if p.startswith("/files/"):
            return self.serve_file(p[7:])
        if p.startswith("/slow/"):
            time.sleep(1.5)
            return self.serve_file(p[6:])
        if p.startswith("/redirect/"):
            return self.send(302, b"", extra={"Location": "/files/" + p[10:]})
        if p == "/loop":
            return self.send(302, b"", extra={"Location": "/loop"})
        if p == "/to-file":
            return self.send(302, b"", extra={"Location": "file:///etc/passwd"})
        if p == "/404":
            return self.send(404, b"no such document", "text/plain")
        if p == "/500":
            return self.send(500, b"internal error", "text/plain")
        if p == "/html":
            return self.send(200, b"<!doctype html><html><body>login</body></html>", "text/html")
        if p == "/huge":
            return self.stream(1 << 30)
        if p == "/huge-length":
            return self.stream(1 << 20, chunk=1024, length=1 << 30, delay=0.01)
        if p == "/gzip-bomb":
            if Handler.bomb is None:
                Handler.bomb = gzip.compress(b" " * (64 << 20), compresslevel=9)
            return self.send(200, Handler.bomb, extra={"Content-Encoding": "gzip"})
        if p == "/stall":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"format": ')
            self.wfile.flush()
            time.sleep(120)
            return None
        if p == "/drip":
            return self.stream(150, chunk=1, delay=0.4)
        return self.send(404, b"unknown path", "text/plain")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    a = ap.parse_args()
    Handler.root = a.root
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    if a.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, a.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()

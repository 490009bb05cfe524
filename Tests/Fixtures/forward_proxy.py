#!/usr/bin/env python3
"""A small HTTP forward proxy on 127.0.0.1, as a user's `http_proxy` would name one (Squid,
tinyproxy, a corporate proxy): it forwards each request in absolute form (`GET http://host:port/path`)
to its host, wherever that is, and hands back the answer as it came (redirects included, not
followed). Prints its port on the first line of standard output.

/_log  -> one line per forwarded request: "<METHOD> <URL> <status>" (status 502 when the host
          could not be reached)
"""
import http.client
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = []
LOCK = threading.Lock()
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def forward(self, method):
        if self.path == "/_log":
            with LOCK:
                return self.reply(200, "".join(line + "\n" for line in LOG).encode(), [("Content-Type", "text/plain")])
        target = urllib.parse.urlsplit(self.path)
        if target.scheme != "http" or not target.hostname:
            return self.reply(400, b"absolute http URLs only")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        path = (target.path or "/") + ("?" + target.query if target.query else "")
        try:
            upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
            upstream.request(method, path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            status = answer.status
            kept = [(name, value) for name, value in answer.getheaders() if name.lower() not in HOP_BY_HOP | {"content-length"}]
            upstream.close()
        except OSError as error:
            status, data, kept = 502, ("could not reach %s: %s" % (target.hostname, error)).encode(), [("Content-Type", "text/plain")]
        with LOCK:
            LOG.append("%s %s %d" % (method, self.path, status))
        self.reply(status, data, kept)

    def do_GET(self):
        self.forward("GET")

    def do_HEAD(self):
        self.forward("HEAD")

    def do_POST(self):
        self.forward("POST")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

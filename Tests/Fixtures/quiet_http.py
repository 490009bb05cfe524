"""What the fixture HTTP servers share (feed_server.py, Benchmarks/feeds/refresh_server.py,
scripts/soak_feeds.py): a request handler on HTTP/1.1 that logs nothing and says each answer's
length, so a client keeps its connection."""
from http.server import BaseHTTPRequestHandler


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=None):
        """`status` with `headers` (a dict) and `body`, its Content-Length said; to a HEAD
        request, the same without the body."""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

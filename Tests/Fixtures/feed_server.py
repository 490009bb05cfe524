#!/usr/bin/env python3
"""Serves the feeds in Tests/Fixtures/feeds (or the folder given as the first argument, so a
test can change a feed between reads) on 127.0.0.1 (or the address in FIXTURE_HOST: a test
host's, TestHost.swift), and prints its port on the first line of standard output.

/feeds/<file>      -> the file (application/rss+xml), with an ETag honoured by If-None-Match
/moved/<file>      -> 301 to /feeds/<file>
/status/<code>     -> that HTTP status with a short body
/slow/<file>       -> the file, after 30 s (a stalled server)
/truncated/<file>  -> promises the whole file, sends half of it and hangs up
/big/<MiB>         -> that many MiB of body, without a Content-Length
/bomb              -> 64 MiB of zeros, gzipped to about 64 KiB (Content-Encoding: gzip)
/redirect-to-file  -> 302 to file:///etc/passwd
/redirect?to=URL   -> 302 to URL (anywhere: another server, another address)
/audio/<name>?size=N[&rate=B][&cut=K][&cutalways=1][&type=T][&disposition=D]
                   -> N bytes of audio (byte i is i % 251), honouring Range and If-Range
                      (ETag "<name>-<N>"); rate: bytes per second; cut: a request without
                      Range sends only K bytes and hangs up (cutalways: every request does)
                      stall=K: a request without a Range sends K bytes, then nothing for 60 s
                      claim=C: a request without a Range says Content-Length C (with stall:
                      a size no disk holds, announced without sending it)
                      chunked=1: no Content-Length, the body in chunks (Transfer-Encoding: chunked)
                      trickle=S: one byte every S seconds (a server that never quite stops)
/audio-redirect/<name>?… -> 302 to /audio/<name>?…
/requests          -> one line per /audio request so far: "<path> <Range header or ->", and
                      " if-range=<If-Range header>" when it came with one
/hangups           -> one line per /audio answer the client hung up on before its end: "<path>"
/redirect-loop     -> 302 to itself, for ever
/flaky/<file>      -> /feeds/<file> while the fault is "none"; otherwise the fault set with
/fault/<mode>         (none, 500, 304, redirect-loop, garbage, truncated, big (20 MiB), stall (30 s))
/flaky-count       -> how many /flaky requests came so far
/feed-log          -> one line per /feeds request: "<file> <status> <If-None-Match or ->"
/gated/<file>      -> /feeds/<file> once the gate is open (at most 60 s later); logged as "gated/<file>"
/gate/<open|close> -> opens or closes that gate (open at start)
/chapters/<file>   -> the file as application/json+chapters (a podcast:chapters file)
/chapters-log      -> one line per /chapters request: "<file> <status>"
/media/<file>      -> the file from the feeds folder as audio/wav, honouring a Range "bytes=N-[M]"
                      (a real player seeks in it: the player tests' silent WAV)
/transcripts/<file> -> the file as a transcript (text/vtt, application/x-subrip, application/json or
                      text/html by its extension)
/transcripts-log   -> one line per /transcripts request: "<file> <status>"
"""
import gzip
import hashlib
import os
import sys
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer

from quiet_http import QuietHandler

FEEDS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "feeds")


class Handler(QuietHandler):
    def audio(self, name, query):
        size = int(query.get("size", ["100000"])[0])
        rate = int(query.get("rate", ["0"])[0])
        cut = int(query.get("cut", ["-1"])[0])
        cut_always = query.get("cutalways", ["0"])[0] == "1"
        stall = int(query.get("stall", ["-1"])[0])
        body = bytes(i % 251 for i in range(size))
        etag = '"%s-%d"' % (name, size)
        headers = {"Content-Type": query.get("type", ["audio/mpeg"])[0], "ETag": etag, "Accept-Ranges": "bytes"}
        if query.get("noetag", ["0"])[0] == "1":
            del headers["ETag"]
        if "disposition" in query:
            headers["Content-Disposition"] = query["disposition"][0]
        wanted = self.headers.get("Range")
        validator = self.headers.get("If-Range")
        REQUESTS.append("%s %s%s" % (self.path.split("?")[0], wanted or "-", " if-range=" + validator if validator else ""))
        start = 0
        if wanted and wanted.startswith("bytes=") and wanted.endswith("-") and self.headers.get("If-Range", etag) == etag:
            start = int(wanted[6:-1])
            if start >= size:
                return self.reply(416, b"", {"Content-Range": "bytes */%d" % size})
            status = 206
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, size - 1, size)
        else:
            status = 200
        part = body[start:]
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        claim = query.get("claim", [None])[0]
        chunked = query.get("chunked", ["0"])[0] == "1"
        trickle = float(query.get("trickle", ["0"])[0])
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", claim if claim and not wanted else str(len(part)))
        self.end_headers()
        if chunked or trickle > 0:
            return self.send_slowly(part, rate, trickle, chunked)
        if cut >= 0 and (cut_always or not wanted):
            part = part[:cut]
            self.close_connection = True
        if stall >= 0 and not wanted:
            # Sends the first bytes, then nothing more for a minute (a transfer caught half way).
            try:
                self.wfile.write(part[:stall])
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            time.sleep(60)
            self.close_connection = True
            return
        try:
            chunk = 16384
            for offset in range(0, len(part), chunk):
                self.wfile.write(part[offset:offset + chunk])
                self.wfile.flush()
                if rate > 0:
                    time.sleep(chunk / rate)
        except (BrokenPipeError, ConnectionResetError):
            HANGUPS.append(self.path.split("?")[0])
            self.close_connection = True

    def send_slowly(self, part, rate, trickle, chunked):
        """The body in pieces: one byte every `trickle` seconds, else 16 KiB at `rate` bytes a
        second (as fast as it goes without one); framed as chunks when `chunked`."""
        size = 1 if trickle > 0 else 16384
        try:
            for offset in range(0, len(part), size):
                piece = part[offset:offset + size]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                self.wfile.flush()
                if trickle > 0:
                    time.sleep(trickle)
                elif rate > 0:
                    time.sleep(size / rate)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            HANGUPS.append(self.path.split("?")[0])
            self.close_connection = True

    def flaky(self, name):
        FLAKY["count"] += 1
        fault = FLAKY["fault"]
        if fault == "none":
            return self.serve_feed(name)
        if fault == "500":
            return self.reply(500, b"internal error")
        if fault == "304":
            return self.reply(304, b"")
        if fault == "redirect-loop":
            return self.reply(302, b"", {"Location": self.path})
        if fault == "garbage":
            return self.reply(200, GARBAGE, {"Content-Type": "application/rss+xml"})
        if fault == "stall":
            time.sleep(30)
            return self.serve_feed(name)
        if fault in ("truncated", "big"):
            return self.do_GET_path("/%s/%s" % ("truncated" if fault == "truncated" else "big", name if fault == "truncated" else "20"))
        return self.reply(400, b"unknown fault")

    def serve_feed(self, name):
        path = os.path.join(FEEDS, name)
        if "/" in name or name.startswith(".") or not os.path.isfile(path):
            return self.reply(404, b"no such feed")
        with open(path, "rb") as f:
            body = f.read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        asked = self.headers.get("If-None-Match")
        FEED_LOG.append("%s %d %s" % (name, 304 if asked == etag else 200, asked or "-"))
        if asked == etag:
            return self.reply(304, b"", {"ETag": etag})
        return self.reply(200, body, {"Content-Type": "application/rss+xml", "ETag": etag})

    def serve_media(self, name):
        path = os.path.join(FEEDS, name)
        if "/" in name or name.startswith(".") or not os.path.isfile(path):
            return self.reply(404, b"no such file")
        with open(path, "rb") as f:
            body = f.read()
        wanted = self.headers.get("Range") or ""
        if wanted.startswith("bytes=") and "," not in wanted:
            first, _, last = wanted[len("bytes="):].partition("-")
            if first.isdigit() and (last == "" or last.isdigit()):
                start, end = int(first), min(int(last) if last else len(body) - 1, len(body) - 1)
                if start >= len(body) or start > end:
                    return self.reply(416, b"", {"Content-Range": "bytes */%d" % len(body)})
                return self.reply(206, body[start:end + 1], {"Content-Type": "audio/wav", "Accept-Ranges": "bytes",
                                                            "Content-Range": "bytes %d-%d/%d" % (start, end, len(body))})
        return self.reply(200, body, {"Content-Type": "audio/wav", "Accept-Ranges": "bytes"})

    def serve_chapters(self, name):
        path = os.path.join(FEEDS, name)
        if "/" in name or name.startswith(".") or not os.path.isfile(path):
            CHAPTERS_LOG.append("%s 404" % name)
            return self.reply(404, b"no such chapters file")
        with open(path, "rb") as f:
            body = f.read()
        CHAPTERS_LOG.append("%s 200" % name)
        return self.reply(200, body, {"Content-Type": "application/json+chapters"})

    def serve_transcript(self, name):
        path = os.path.join(FEEDS, name)
        if "/" in name or name.startswith(".") or not os.path.isfile(path):
            TRANSCRIPTS_LOG.append("%s 404" % name)
            return self.reply(404, b"no such transcript")
        with open(path, "rb") as f:
            body = f.read()
        TRANSCRIPTS_LOG.append("%s 200" % name)
        types = {"vtt": "text/vtt", "srt": "application/x-subrip", "json": "application/json", "html": "text/html"}
        return self.reply(200, body, {"Content-Type": types.get(name.rsplit(".", 1)[-1], "application/octet-stream")})

    def do_GET(self):
        return self.do_GET_path(self.path)

    def do_GET_path(self, full_path):
        parts = full_path.split("?")[0].strip("/").split("/")
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(full_path).query)
        if parts == ["redirect-loop"]:
            return self.reply(302, b"", {"Location": "/redirect-loop"})
        if len(parts) == 2 and parts[0] == "fault":
            FLAKY["fault"] = parts[1]
            return self.reply(200, b"ok")
        if parts == ["feed-log"]:
            return self.reply(200, "".join(line + "\n" for line in FEED_LOG).encode(), {"Content-Type": "text/plain"})
        if parts == ["chapters-log"]:
            return self.reply(200, "".join(line + "\n" for line in CHAPTERS_LOG).encode(), {"Content-Type": "text/plain"})
        if len(parts) == 2 and parts[0] == "chapters":
            return self.serve_chapters(parts[1])
        if len(parts) == 2 and parts[0] == "media":
            return self.serve_media(parts[1])
        if parts == ["transcripts-log"]:
            return self.reply(200, "".join(line + "\n" for line in TRANSCRIPTS_LOG).encode(), {"Content-Type": "text/plain"})
        if len(parts) == 2 and parts[0] == "transcripts":
            return self.serve_transcript(parts[1])
        if parts == ["flaky-count"]:
            return self.reply(200, str(FLAKY["count"]).encode())
        if len(parts) == 2 and parts[0] == "flaky":
            return self.flaky(parts[1])
        if len(parts) == 2 and parts[0] == "audio":
            return self.audio(parts[1], query)
        if len(parts) == 2 and parts[0] == "audio-redirect":
            return self.reply(302, b"", {"Location": "/audio/" + parts[1] + ("?" + urllib.parse.urlsplit(self.path).query if "?" in self.path else "")})
        if parts == ["requests"]:
            return self.reply(200, "".join(line + "\n" for line in REQUESTS).encode(), {"Content-Type": "text/plain"})
        if parts == ["hangups"]:
            return self.reply(200, "".join(line + "\n" for line in HANGUPS).encode(), {"Content-Type": "text/plain"})
        if parts == ["bomb"]:
            return self.reply(200, BOMB, {"Content-Encoding": "gzip", "Content-Type": "application/rss+xml"})
        if parts == ["redirect"] and "to" in query:
            return self.reply(302, b"", {"Location": query["to"][0]})
        if parts == ["redirect-to-file"]:
            return self.reply(302, b"", {"Location": "file:///etc/passwd"})
        if len(parts) == 2 and parts[0] == "big" and parts[1].isdigit():
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"<!-- " + b"x" * 65000 + b" -->"
            try:
                for _ in range(int(parts[1]) * 16):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if len(parts) == 2 and parts[0] == "moved":
            return self.reply(301, b"", {"Location": "/feeds/" + parts[1]})
        if len(parts) == 2 and parts[0] in ("slow", "truncated") and "/" not in parts[1] and not parts[1].startswith("."):
            path = os.path.join(FEEDS, parts[1])
            if not os.path.isfile(path):
                return self.reply(404, b"no such feed")
            with open(path, "rb") as f:
                body = f.read()
            if parts[0] == "slow":
                time.sleep(30)
                return self.reply(200, body, {"Content-Type": "application/rss+xml"})
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if len(parts) == 2 and parts[0] == "status" and parts[1].isdigit():
            return self.reply(int(parts[1]), b"status page")
        if len(parts) == 2 and parts[0] == "feeds":
            return self.serve_feed(parts[1])
        if len(parts) == 2 and parts[0] == "gate" and parts[1] in ("open", "close"):
            (GATE.set if parts[1] == "open" else GATE.clear)()
            return self.reply(200, b"ok")
        if len(parts) == 2 and parts[0] == "gated":
            GATE.wait(60)
            FEED_LOG.append("gated/%s 200 -" % parts[1])
            return self.serve_feed(parts[1])
        self.reply(404, b"not here")


REQUESTS = []
HANGUPS = []
FEED_LOG = []
CHAPTERS_LOG = []
TRANSCRIPTS_LOG = []
FLAKY = {"fault": "none", "count": 0}
GATE = threading.Event()
GATE.set()
GARBAGE = bytes((i * 7919 + 13) % 256 for i in range(64 * 1024))
BOMB = gzip.compress(b"\0" * (64 * 1024 * 1024))
server = ThreadingHTTPServer((os.environ.get("FIXTURE_HOST", "127.0.0.1"), 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

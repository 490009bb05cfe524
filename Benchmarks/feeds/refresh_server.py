#!/usr/bin/env python3
"""The feed server `make bench` refreshes 200 subscriptions from, for almanac and newsboat
alike: feeds spread over HOSTS loopback addresses (127.0.0.2, 127.0.0.3, …), as real
subscriptions come from many servers.

  refresh_server.py FOLDER HOSTS

serves FOLDER's show<N>.xml as /feed/<N>.xml on every address, one port (printed on the
first line of standard output), and:

  /mode?changed=0|1&delay=SECONDS   changed=1: every answer is a new version of its feed (a new
                                    first episode, a new ETag and Last-Modified), as when every
                                    feed published; 0: the same bytes, answering 304 to
                                    If-None-Match / If-Modified-Since. delay: each answer waits
                                    that long (a server across the internet)
  /stats                            JSON: requests, 200s, 304s, bytes sent, most at once
  /stats?reset=1                    the same, then zeroed

Loopback only: it binds 127.0.0.2 … 127.0.0.(HOSTS+1)."""
import email.utils
import hashlib
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures"))
from quiet_http import QuietHandler  # noqa: E402

FOLDER = sys.argv[1]
HOSTS = int(sys.argv[2])
STATE = {"changed": False, "delay": 0.0, "version": 0}
STATS = {"requests": 0, "ok": 0, "not_modified": 0, "bytes": 0, "running": 0, "most_at_once": 0}
LOCK = threading.Lock()
FEEDS = {}
START = time.time()


def feed(number):
    if number not in FEEDS:
        with open(os.path.join(FOLDER, "show%03d.xml" % number), "rb") as source:
            FEEDS[number] = source.read()
    return FEEDS[number]


class Handler(QuietHandler):
    def do_GET(self):
        path, _, query = self.path.partition("?")
        arguments = urllib.parse.parse_qs(query)
        if path == "/mode":
            with LOCK:
                STATE["changed"] = arguments.get("changed", ["0"])[0] == "1"
                STATE["delay"] = float(arguments.get("delay", ["0"])[0])
            return self.reply(200, b"ok")
        if path == "/stats":
            with LOCK:
                body = json.dumps(STATS).encode()
                if arguments.get("reset") == ["1"]:
                    for key in STATS:
                        STATS[key] = 0
            return self.reply(200, body, {"Content-Type": "application/json"})
        parts = path.strip("/").split("/")
        if len(parts) != 2 or parts[0] != "feed" or not parts[1].endswith(".xml"):
            return self.reply(404, b"not here")
        try:
            number = int(parts[1][:-4])
            body = feed(number)
        except (ValueError, OSError):
            return self.reply(404, b"no such feed")
        with LOCK:
            STATS["requests"] += 1
            STATS["running"] += 1
            STATS["most_at_once"] = max(STATS["most_at_once"], STATS["running"])
            changed, delay = STATE["changed"], STATE["delay"]
            if changed:
                STATE["version"] += 1
            version = STATE["version"]
        try:
            if delay:
                time.sleep(delay)
            if changed:
                # A new first episode: a new version of the feed.
                item = ("<item><title>New episode %d</title><guid>new-%d-%d</guid><pubDate>%s</pubDate>"
                        "<enclosure url=\"https://example.com/new/%d.mp3\" length=\"1000\" type=\"audio/mpeg\"/></item>\n"
                        % (version, number, version, email.utils.formatdate(START + version, usegmt=True), version)).encode()
                at = body.find(b"<item>")
                body = body[:at] + item + body[at:]
                modified = START + version
            else:
                modified = START
            etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
            last_modified = email.utils.formatdate(modified, usegmt=True)
            asked_etag = self.headers.get("If-None-Match")
            asked_since = self.headers.get("If-Modified-Since")
            unchanged = asked_etag == etag or (asked_etag is None and asked_since == last_modified)
            headers = {"ETag": etag, "Last-Modified": last_modified, "Content-Type": "application/rss+xml"}
            if unchanged:
                with LOCK:
                    STATS["not_modified"] += 1
                return self.reply(304, b"", headers)
            with LOCK:
                STATS["ok"] += 1
                STATS["bytes"] += len(body)
            return self.reply(200, body, headers)
        finally:
            with LOCK:
                STATS["running"] -= 1


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that drops a kept-alive connection is no error of the server's.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def main():
    servers = [Server(("127.0.0.2", 0), Handler)]
    port = servers[0].server_address[1]
    for host in range(3, HOSTS + 2):
        servers.append(Server(("127.0.0.%d" % host, port), Handler))
    for server in servers:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(port, flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()

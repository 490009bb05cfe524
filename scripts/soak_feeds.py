#!/usr/bin/python3
"""make soak's podcast hosts: the feeds of scripts/soak_world.py's plan, served on 20 loopback
addresses (127.0.0.2 to 127.0.0.21, each its own server), whose episodes appear as the
simulated clock passes their times.

    soak_feeds.py PLAN LOG

PLAN is the JSON the driver wrote (`feeds`: id, host, title, period, offset, length, size, ttl;
`start`). The clock is the file ALMANAC_SIMULATED_CLOCK names, as the daemon's. Prints one
line of JSON, {host: port}, once every address listens.

/feed/<id>.xml       -> the feed as it is at the simulated time: its newest 30 episodes whose
                        time has come (episode n at start + offset + n × period; n < 0 are the
                        back catalogue), with an ETag honoured by If-None-Match, and <ttl> when
                        the plan gives one
/audio/<id>/<n>.mp3  -> the episode's enclosure: `size` bytes (byte i is i % 251)

Each request is a line of LOG: "SIMULATED_TIME HOST PATH STATUS" (the feed reads the driver
checks the cadence with, and the downloads).
"""
import email.utils
import hashlib
import json
import os
import sys
import threading
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures"))
from quiet_http import QuietHandler  # noqa: E402

CLOCK = os.environ["ALMANAC_SIMULATED_CLOCK"]
KEPT = 30


def now():
    with open(CLOCK) as f:
        return float(f.read(64).strip())


def published(feed, n, start):
    return start + feed["offset"] + n * feed["period"]


def newest(feed, moment, start):
    """The number of the newest episode whose time has come."""
    return int((moment - start - feed["offset"]) // feed["period"])


class Feeds:
    def __init__(self, plan, log):
        self.start = plan["start"]
        self.feeds = {feed["id"]: feed for feed in plan["feeds"]}
        self.log = open(log, "a", buffering=1)
        self.lock = threading.Lock()
        # The body of a feed as of its newest episode: built once.
        self.bodies = {}

    def body(self, feed, last, host):
        key = (feed["id"], last)
        with self.lock:
            if key in self.bodies:
                return self.bodies[key]
        items = []
        for n in range(last, last - KEPT, -1):
            when = email.utils.formatdate(published(feed, n, self.start), usegmt=True)
            items.append('<item><title>%s, episode %d</title><guid isPermaLink="false">soak-%s-%d</guid><pubDate>%s</pubDate>'
                         '<itunes:duration>%d</itunes:duration>'
                         '<enclosure url="http://%s/audio/%s/%d.mp3" type="audio/mpeg" length="%d"/></item>'
                         % (feed["title"], n, feed["id"], n, when, feed["length"], host, feed["id"], n, feed["size"]))
        ttl = "<ttl>%d</ttl>" % feed["ttl"] if feed.get("ttl") else ""
        body = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">'
                '<channel><title>%s</title><link>http://%s/</link><description>A podcast of the soak.</description>%s%s</channel></rss>\n'
                % (feed["title"], host, ttl, "".join(items))).encode()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        with self.lock:
            self.bodies[key] = (body, etag)
            # Only the newest of each feed is asked for again.
            self.bodies.pop((feed["id"], last - 1), None)
        return body, etag


class Handler(QuietHandler):
    def reply(self, status, body=b"", headers=None):
        """As every fixture server answers (`QuietHandler`), each answer a line of LOG."""
        super().reply(status, body, headers)
        self.server.feeds.log.write("%.3f %s %s %d\n" % (now(), self.server.host, self.path, status))

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        feeds = self.server.feeds
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "feed" and parts[1].endswith(".xml"):
            feed = feeds.feeds.get(parts[1][:-4])
            if feed is None or feed["host"] != self.server.host:
                return self.reply(404, b"no such feed")
            body, etag = feeds.body(feed, newest(feed, now(), feeds.start), "%s:%d" % (self.server.host, self.server.port))
            if self.headers.get("If-None-Match") == etag:
                return self.reply(304, b"", {"ETag": etag})
            return self.reply(200, body, {"Content-Type": "application/rss+xml", "ETag": etag})
        if len(parts) == 3 and parts[0] == "audio" and parts[2].endswith(".mp3") and parts[2][:-4].lstrip("-").isdigit():
            feed = feeds.feeds.get(parts[1])
            if feed is None:
                return self.reply(404, b"no such episode")
            size = feed["size"]
            return self.reply(200, bytes(i % 251 for i in range(size)), {"Content-Type": "audio/mpeg", "ETag": '"%s-%s"' % (parts[1], parts[2])})
        return self.reply(404, b"not here")


def main():
    plan_path, log = sys.argv[1], sys.argv[2]
    with open(plan_path) as f:
        plan = json.load(f)
    feeds = Feeds(plan, log)
    ports = {}
    for host in sorted({feed["host"] for feed in plan["feeds"]}):
        server = ThreadingHTTPServer((host, 0), Handler)
        server.daemon_threads = True
        server.feeds, server.host, server.port = feeds, host, server.server_address[1]
        ports[host] = server.port
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps(ports), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()

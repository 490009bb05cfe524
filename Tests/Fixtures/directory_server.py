#!/usr/bin/env python3
"""A stand-in for the iTunes Search API and for podcasts' web sites, for tests: serves on
127.0.0.1 and prints its port on the first line of standard output.

/search?term=T&limit=N&media=podcast&entity=podcast
                   -> the results of itunes-search.json whose collectionName or artistName
                      holds T (case-insensitive), at most N, in the shape iTunes answers
                      ({base} in feedUrl becomes this server); term "outage" -> 503,
                      term "garbage" -> an HTML page, term "bomb" -> 4 MiB less a little of
                      {"results":[{},{},…]}
/site/<file>       -> a web page announcing the feed /feeds/<file> (a relative href, after a
                      stylesheet and an Atom link of another type)
/site-nofeed       -> a web page announcing no feed
/feeds/<file>      -> Tests/Fixtures/feeds/<file>
/requests          -> the query of every /search so far, one a line
/private/<file>    -> /feeds/<file> with HTTP Basic authentication as alice / "s3cret é:x"
                      (401 with WWW-Authenticate otherwise)
/private-elsewhere/<file> -> after authentication, 302 to http://localhost:<port>/open/<file>
                      (another host name for this server)
/private-moving/<name>?to=URL -> after authentication, a feed that says it moved to URL
                      (<itunes:new-feed-url>) and has older episodes there (<atom:link rel="next">)
/open/<file>       -> /feeds/<file>, for anyone
/auth-log          -> "<path> <Authorization header or ->" of every /private*, /open request
/delayed/<file>?…  -> /feeds/<file> after 0.3 s, counting how many such requests run at once,
                      per Host header and in all
/concurrency       -> {"all": most at once, "hosts": {host: most at once}}; /concurrency?reset=1 starts again
"""
import base64
import json
import os
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
REQUESTS = []
AUTH_LOG = []
LOCK = threading.Lock()
RUNNING = {"all": 0, "hosts": {}}
MOST = {"all": 0, "hosts": {}}
PASSWORD = "Basic " + base64.b64encode("alice:s3cret é:x".encode()).decode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        split = urllib.parse.urlsplit(self.path)
        parts = split.path.strip("/").split("/")
        query = urllib.parse.parse_qs(split.query)
        base = "http://127.0.0.1:%d" % self.server.server_address[1]
        if parts == ["search"]:
            REQUESTS.append(split.query)
            term = query.get("term", [""])[0].lower()
            if term == "outage":
                return self.reply(503, b"Service Unavailable", "text/plain")
            if term == "garbage":
                return self.reply(200, b"<html><body>Oops</body></html>", "text/html")
            if term == "bomb":
                return self.reply(200, b'{"results":[' + b"{}," * (4 * 1024 * 1024 // 3 - 64) + b"{}]}", "application/json")
            with open(os.path.join(HERE, "itunes-search.json"), encoding="utf-8") as f:
                answer = json.load(f)
            limit = int(query.get("limit", ["50"])[0])
            found = [r for r in answer["results"]
                     if term in r.get("collectionName", "").lower() or term in r.get("artistName", "").lower()][:limit]
            for result in found:
                if "feedUrl" in result:
                    result["feedUrl"] = result["feedUrl"].replace("{base}", base)
            body = json.dumps({"resultCount": len(found), "results": found}).encode()
            return self.reply(200, body, "text/javascript; charset=utf-8")
        if parts == ["concurrency"]:
            with LOCK:
                if query.get("reset"):
                    MOST["all"], MOST["hosts"] = 0, {}
                body = json.dumps(MOST).encode()
            return self.reply(200, body, "application/json")
        if len(parts) == 2 and parts[0] == "delayed":
            host = self.headers.get("Host", "").split(":")[0]
            with LOCK:
                RUNNING["all"] += 1
                RUNNING["hosts"][host] = RUNNING["hosts"].get(host, 0) + 1
                MOST["all"] = max(MOST["all"], RUNNING["all"])
                MOST["hosts"][host] = max(MOST["hosts"].get(host, 0), RUNNING["hosts"][host])
            time.sleep(0.3)
            with LOCK:
                RUNNING["all"] -= 1
                RUNNING["hosts"][host] -= 1
            parts = ["feeds", parts[1]]
        if parts[0] in ("private", "private-elsewhere", "private-moving", "open"):
            AUTH_LOG.append("%s %s" % (split.path, self.headers.get("Authorization", "-")))
        if len(parts) == 2 and parts[0] in ("private", "private-elsewhere", "private-moving") and self.headers.get("Authorization") != PASSWORD:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="members"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if len(parts) == 2 and parts[0] == "private-moving":
            to = query.get("to", [""])[0].replace("&", "&amp;").replace("<", "&lt;")
            feed = ('<?xml version="1.0" encoding="UTF-8"?>'
                    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">'
                    '<channel><title>Moving %s</title><itunes:new-feed-url>%s</itunes:new-feed-url>'
                    '<atom:link rel="next" href="%s"/>'
                    '<item><title>Last here</title><guid>moving-1</guid><pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate></item>'
                    '</channel></rss>') % (parts[1], to, to)
            return self.reply(200, feed.encode(), "application/rss+xml")
        if len(parts) == 2 and parts[0] == "private-elsewhere":
            self.send_response(302)
            self.send_header("Location", "http://localhost:%d/open/%s" % (self.server.server_address[1], parts[1]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if len(parts) == 2 and parts[0] in ("private", "open"):
            parts = ["feeds", parts[1]]
        if parts == ["auth-log"]:
            return self.reply(200, "".join(line + "\n" for line in AUTH_LOG).encode(), "text/plain")
        if parts == ["requests"]:
            return self.reply(200, "".join(line + "\n" for line in REQUESTS).encode(), "text/plain")
        if len(parts) == 2 and parts[0] == "site":
            page = ('<!DOCTYPE html><html><head><title>A show</title>'
                    '<link rel="stylesheet" href="/style.css">'
                    '<link rel="alternate" type="application/json" href="/api/episodes.json">'
                    "<LINK REL='alternate feed' TYPE='application/rss+xml; charset=utf-8' title=\"The show's feed\" HREF='../feeds/%s'>"
                    '<link rel="alternate" type="application/atom+xml" href="/feeds/atom.xml">'
                    '</head><body><h1>A show</h1></body></html>') % parts[1]
            return self.reply(200, page.encode(), "text/html; charset=utf-8")
        if parts == ["site-nofeed"]:
            return self.reply(200, b"<!DOCTYPE html><html><head><title>No feed here</title></head><body>Hello</body></html>", "text/html")
        if len(parts) == 2 and parts[0] == "feeds" and not parts[1].startswith("."):
            path = os.path.join(HERE, "feeds", parts[1])
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    return self.reply(200, f.read(), "application/rss+xml")
        return self.reply(404, b"not here", "text/plain")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

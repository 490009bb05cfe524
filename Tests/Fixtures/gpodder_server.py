#!/usr/bin/env python3
"""A podcast sync server for tests, built from the gpodder.net API v2 documentation
(https://gpoddernet.readthedocs.io/en/latest/api/reference/) and from the Nextcloud app
"gPodder Sync" (its README and routes). Listens on 127.0.0.1 only and prints its port on the
first line of standard output. Standard library only.

    gpodder_server.py [--flavour gpodder|nextcloud] [--like mygpo|opodsync|fastapi-router] [--max-actions N]
                      [--user NAME:PASSWORD]...

Users (alice:s3cret unless --user is given) authenticate with HTTP Basic; a wrong password
or an unknown user is a 401 with `WWW-Authenticate: Basic`. gpodder flavour: any call made
with HTTP Basic and no session opens one and sets its `sessionid` cookie (as mygpo and
opodsync do), which later calls may send instead.

gpodder flavour (the paths of gpodder.net and mygpo), as mygpo's code does it (--like mygpo,
the default; mygpo is the server gpodder.net runs):
  POST /api/2/auth/USER/login.json       Basic auth; sets the `sessionid` cookie, which later
                                          requests may send instead of Basic
  POST /api/2/auth/USER/logout.json      forgets the session
  POST /api/2/devices/USER/DEVICE.json   {"caption", "type"}: registers or updates a device
  GET  /api/2/devices/USER.json          [{"id", "caption", "type", "subscriptions"}]
  GET  /api/2/sync-devices/USER.json     {"synchronized": [[...]], "not-synchronized": [...]}
  POST /api/2/sync-devices/USER.json     {"synchronize": [[...]], "stop-synchronize": [...]}
  GET  /api/2/subscriptions/USER/DEVICE.json?since=T   {"add", "remove", "timestamp"}: the
                                          device's net changes after T (404 for an unknown device)
  POST /api/2/subscriptions/USER/DEVICE.json {"add", "remove"} -> {"timestamp", "update_urls"};
                                          400 when a URL is both added and removed. Devices
                                          that are synchronized share each change.
  GET  /api/2/episodes/USER.json?since=T[&device=D][&podcast=P][&aggregated=true]
                                          {"actions", "timestamp"}: the actions whose own
                                          timestamp is at or after T and before now, oldest
                                          first, at most --max-actions (1000, mygpo's
                                          MAX_EPISODE_ACTIONS) of them; `timestamp` is the last
                                          one's when there is one, else now. (The API's
                                          documentation says T counts uploads; mygpo's code
                                          compares it with the actions' own times.)
  POST /api/2/episodes/USER.json         [actions] -> {"timestamp", "update_urls"}; 400 for
                                          an unknown action or one without podcast/episode

--like opodsync: the gpodder flavour as opodsync 0.5 (a PHP server) answers it, checked against
it (docs/sync.md, "Checked against"):
  - login.json refuses the cookie alone (401 "No username or password provided"): it wants
    HTTP Basic every time; every other call takes the cookie
  - answers that say nothing are JSON: {"code": 200, "message": "Logged in!"}, and so are
    errors: {"code": 400, "message": "..."}
  - sync-devices is not implemented: 200 with an empty body, and nothing is grouped
  - one subscription list per user, whatever the device (an unknown device is no 404);
    GET subscriptions?since=T lists every URL whose last change is at or after T, in `add`
    when subscribed, in `remove` when not (so what a device sent comes back to it), with
    "update_urls": []
  - GET episodes: the actions whose own timestamp is at or after T, `timestamp` is now,
    and action times end in Z (2026-11-23T07:45:00Z); the podcast, device and aggregated
    parameters are ignored
  - an action for a podcast that is not in the list adds it to the list (every device then
    sees it as subscribed)
  - URLs are not rewritten: one that is not http(s) is a 400 for the whole upload

--like fastapi-router: the gpodder flavour as gpodder-fastapi-router 0.1.3 (a FastAPI server on
PyPI) answers it, read from its code and checked against it (docs/sync.md, "Checked against"):
  - subscriptions are kept as rows (device, url, created, deleted), stamped with the whole
    second (Unix seconds, no fraction); an add makes a row unless the URL is subscribed in the
    device's sync group already; a remove marks the device's *own* rows deleted (a URL another
    device of its group added stays)
  - GET subscriptions?since=T lists the rows of the device's group created *after* T and not
    deleted (`add`), and those deleted after T (`remove`): a URL given up and subscribed again
    after T is in both; `timestamp` is now, to the second; an unknown device is no 404
  - GET episodes: the actions whose own timestamp is at or after T (T > 0), all of them, oldest
    first; `timestamp` is the last one's, else now
  - sync-devices groups devices without copying their lists (they are read together)

nextcloud flavour (the paths of the Nextcloud app, one library per user, no devices):
  GET  /index.php/apps/gpoddersync/subscriptions?since=T          {"add", "remove", "timestamp"}: the
                                          URLs whose last change, stamped with its whole second
                                          (the app's `updated`), is after T
  POST /index.php/apps/gpoddersync/subscription_change/create     {"add", "remove"} -> {"timestamp"}
  GET  /index.php/apps/gpoddersync/episode_action?since=T         {"actions", "timestamp"}: the
                                          latest action of each episode whose own timestamp is
                                          after T; `action` in capitals, `timestamp` as
                                          2024-05-01T10:00:00+00:00, -1 for what was not said
  POST /index.php/apps/gpoddersync/episode_action/create          [actions] -> {"timestamp"};
                                          only `play` actions are kept (as the app does)

Timestamps the server gives are Unix seconds; action timestamps are ISO 8601 in UTC.
URLs are sanitised as gpodder.net does (surrounding spaces trimmed; anything not http(s)
becomes ""), and /_control/rewrite makes the server rewrite more: each rewritten URL is
reported in `update_urls` (gpodder flavour).

Control (no authentication):
  /_control/fault?mode=M     none | offline (the connection is closed unanswered) | 500 | 503 |
                             malformed (half a JSON document) | huge (40 MiB of JSON) |
                             bomb (16 MiB less a little of {"add":[0,0,…]}) | objects (2.4 MB of {"add":[{"a":0},…]}) | html (every answer a web page)
  /_control/clock?offset=S   the server's clock runs S seconds ahead (negative: behind); its
                             `Date` header and timestamps follow
  /_control/clock?at=T       the server's clock stands still at T (Unix seconds) until the next
                             /_control/clock: every answer is of that very time, however slow
                             the client
  /_control/rewrite?from=A&to=B   the server rewrites URL A to B from now on
  /_control/expire           every session ends (their cookies are refused from now on)
  /_control/log              one line per API request: "METHOD PATH auth" (auth: basic,
                             cookie or none)
  /_control/headers          one line per request but control ones, as it came:
                             "METHOD PATH cookie=<Cookie header or -> authorization=<scheme or ->"
  /_control/redirect?to=BASE every request but control ones is answered 307 to BASE + its path
                             and query from now on (to=- stops it): a server that moved
  /_control/state            the whole state as JSON (subscriptions per device, actions)
  /_control/subscribe?user=U&device=D&url=X[&remove=1][&at=given[+N|-N]|T]   a change as if
                             device D uploaded it; with `at`, stamped with the `timestamp` the
                             server last answered a GET of subscriptions with (plus or minus N
                             seconds), or with T (Unix seconds), instead of now: a change made
                             in the very second a device was last answered, on purpose
  /_control/answers          one line per GET of subscriptions or episodes: "subscriptions DEVICE
                             since=S add=N remove=N timestamp=T" or "episodes since=S actions=N
                             timestamp=T"
  /_control/action           POST a JSON list of actions as if another device uploaded them

Its clock is the computer's, or the simulated time in the file ALMANAC_SIMULATED_CLOCK names
when the test sets it (the daemon's simulated clock, `make soak`).
"""
import base64
import datetime
import email.utils
import json
import os
import re
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FLAVOUR = "gpodder"
LIKE = "mygpo"
MAX_ACTIONS = 1000
USERS = {}
args = sys.argv[1:]
while args:
    if args[0] == "--flavour":
        FLAVOUR = args[1]
        args = args[2:]
    elif args[0] == "--like":
        LIKE = args[1]
        if LIKE not in ("mygpo", "opodsync", "fastapi-router"):
            sys.exit("--like is mygpo, opodsync or fastapi-router")
        args = args[2:]
    elif args[0] == "--max-actions":
        MAX_ACTIONS = int(args[1])
        args = args[2:]
    elif args[0] == "--user":
        name, password = args[1].split(":", 1)
        USERS[name] = password
        args = args[2:]
    else:
        sys.exit("unknown argument " + args[0])
if not USERS:
    USERS["alice"] = "s3cret"

LOCK = threading.Lock()
STATE = {
    "fault": "none",
    "offset": 0.0,
    "frozen": None,          # the time the clock stands still at (/_control/clock?at=T)
    "rewrites": {},
    "headers": [],
    "redirect": None,
    "log": [],
    "answers": [],           # one line per GET of subscriptions or episodes (/_control/answers)
    "given": None,           # the `timestamp` of the last GET of subscriptions
    "sessions": {},          # sessionid -> user
    "devices": {},           # user -> {device: {"caption", "type"}}
    "groups": {},            # user -> [[device, ...], ...]
    "history": {},           # user -> [(time, device, "add"|"remove", url)]
    "actions": {},           # user -> [(received, action dict)]
    "opodsync": {},          # user -> {url: (subscribed, changed)} (--like opodsync)
    "rows": {},              # user -> [{"device", "url", "created", "deleted"}] (--like fastapi-router)
    "nc_subscriptions": {},  # user -> {url: (subscribed, updated)}
    "nc_actions": {},        # user -> {episode url: action dict with "epoch"}
}
NEXTCLOUD = "/index.php/apps/gpoddersync/"
ACTIONS = ("download", "delete", "play", "new", "flattr")


def now():
    """The server's clock: a time it was told to stand still at (`clock?at=T`), else the
    simulated time in the file ALMANAC_SIMULATED_CLOCK names (the
    daemon's, when a test runs it on one: `make soak`), else the computer's; plus the offset."""
    if STATE["frozen"] is not None:
        return STATE["frozen"]
    path = os.environ.get("ALMANAC_SIMULATED_CLOCK")
    if path:
        try:
            with open(path) as f:
                return float(f.read(64).strip()) + STATE["offset"]
        except (OSError, ValueError):
            pass
    return time.time() + STATE["offset"]


def iso(epoch):
    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def parse_iso(text):
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    value = datetime.datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.timestamp()


def sanitise(url, update_urls):
    clean = url.strip()
    if not (clean.startswith("http://") or clean.startswith("https://")):
        clean = ""
    clean = STATE["rewrites"].get(clean, clean)
    if clean != url:
        update_urls.append([url, clean])
    return clean


def group_of(user, device):
    for group in STATE["groups"].get(user, []):
        if device in group:
            return group
    return [device]


def action_time(action, received):
    """An action's own time (Unix seconds): its timestamp, else when it was received."""
    try:
        return parse_iso(action["timestamp"]) if action.get("timestamp") else received
    except ValueError:
        return received


def opodsync_subscribe(user, url, subscribed, stamp):
    STATE["opodsync"].setdefault(user, {})[url] = (subscribed, int(stamp))


def fastapi_router_subscribe(user, device, url, subscribed, stamp):
    """A change as gpodder-fastapi-router makes it: a row, or its own rows marked deleted."""
    rows = STATE["rows"].setdefault(user, [])
    if subscribed:
        if url not in fastapi_router_current(user, device):
            rows.append({"device": device, "url": url, "created": int(stamp), "deleted": 0})
    else:
        for row in rows:
            if row["device"] == device and row["url"] == url and not row["deleted"]:
                row["deleted"] = int(stamp)


def fastapi_router_current(user, device):
    """The URLs subscribed for the device's group: of each URL, its latest row, if not deleted."""
    group = group_of(user, device)
    latest = {}
    for row in STATE["rows"].get(user, []):
        if row["device"] in group and (row["url"] not in latest or row["created"] >= latest[row["url"]]["created"]):
            latest[row["url"]] = row
    return {url for url, row in latest.items() if not row["deleted"]}


def stamp_of(query, stamp):
    """`at=given[+N|-N]`: the timestamp last given for subscriptions, moved N seconds; `at=T`:
    T (Unix seconds); else `stamp`."""
    at = query.get("at", [None])[0]
    if not at:
        return stamp
    if re.match(r"^\d+$", at):
        return int(at)
    match = re.match(r"^given([+-]\d+)?$", at)
    if not match or STATE["given"] is None:
        raise ValueError("at=given needs a GET of subscriptions first")
    return STATE["given"] + int(match.group(1) or 0)


def subscribed(user, device, until):
    if LIKE == "fastapi-router":
        return fastapi_router_current(user, device)
    if LIKE == "opodsync":
        return {u for u, (s, t) in STATE["opodsync"].get(user, {}).items() if s and t <= until}

    current = set()
    for (when, dev, kind, url) in STATE["history"].get(user, []):
        if dev == device and when <= until:
            if kind == "add":
                current.add(url)
            else:
                current.discard(url)
    return current


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def date_time_string(self, timestamp=None):
        return email.utils.formatdate(now(), usegmt=True)

    def reply(self, status, body=b"", headers=None, content_type="application/json"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        for name, value in list(getattr(self, "extra", {}).items()) + list((headers or {}).items()):
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return True

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def json_body(self):
        return json.loads(self.body().decode("utf-8") or "null")

    # Authentication: Basic, or (gpodder flavour) the session cookie.
    def authenticated(self):
        header = self.headers.get("Authorization") or ""
        if header.lower().startswith("basic "):
            try:
                name, password = base64.b64decode(header[6:]).decode("utf-8").split(":", 1)
            except Exception:
                return None, "basic"
            if USERS.get(name) == password:
                return name, "basic+cookie" if self.session() else "basic"
            return None, "basic"
        cookie = self.headers.get("Cookie") or ""
        for part in cookie.split(";"):
            key, _, value = part.strip().partition("=")
            if key == "sessionid" and value in STATE["sessions"]:
                return STATE["sessions"][value], "cookie"
        return None, "none"

    def session(self):
        """The `sessionid` cookie's value when it names a session, else None."""
        for part in (self.headers.get("Cookie") or "").split(";"):
            key, _, value = part.strip().partition("=")
            if key == "sessionid" and value in STATE["sessions"]:
                return value
        return None

    def refuse(self, message="Invalid username/password"):
        realm = {"nextcloud": "Nextcloud"}.get(FLAVOUR, "Please login" if LIKE == "opodsync" else "")
        body = json.dumps({"code": 401, "message": message}).encode() if FLAVOUR == "gpodder" and LIKE == "opodsync" else b""
        return self.reply(401, body, {"WWW-Authenticate": 'Basic realm="%s"' % realm})

    def answered(self, what, since, body, device=None):
        """Answers a GET of subscriptions or episodes with `body`, noting it (/_control/answers)."""
        if what == "subscriptions":
            STATE["given"] = int(body["timestamp"])
            STATE["answers"].append("subscriptions %s since=%s add=%d remove=%d timestamp=%s"
                                    % (device, since, len(body["add"]), len(body["remove"]), body["timestamp"]))
        else:
            STATE["answers"].append("episodes since=%s actions=%d timestamp=%s" % (since, len(body["actions"]), body["timestamp"]))
        return self.reply(200, body)

    def said(self, status, message):
        """An answer that only says something: opodsync's JSON, else plain text (or nothing)."""
        if LIKE == "opodsync":
            return self.reply(status, {"code": status, "message": message})
        if status == 200:
            return self.reply(200, b"")
        return self.reply(status, message.encode(), content_type="text/plain")

    def handle_any(self, method):
        self.extra = {}  # headers every answer to this request gets (one handler serves a whole connection)
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = urllib.parse.parse_qs(url.query)
        payload = self.body() if method == "POST" else b""
        if path.startswith("/_control/"):
            return self.control(path[len("/_control/"):], query, payload)
        with LOCK:
            authorization = (self.headers.get("Authorization") or "-").split(" ")[0]
            STATE["headers"].append("%s %s cookie=%s authorization=%s" % (method, path, self.headers.get("Cookie") or "-", authorization))
        if STATE["redirect"]:
            return self.reply(307, b"", {"Location": STATE["redirect"] + self.path})
        fault = STATE["fault"]
        if fault == "offline":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if fault in ("500", "503"):
            return self.reply(int(fault), b"<html><body>Service unavailable</body></html>", content_type="text/html")
        if fault == "html":
            return self.reply(200, b"<!doctype html><html><head><title>Welcome</title></head><body>Just a web site.</body></html>", content_type="text/html")
        user, how = self.authenticated()
        with LOCK:
            STATE["log"].append("%s %s %s" % (method, path, how))
        if fault == "malformed":
            return self.reply(200, b'{"add": ["http://example.com/feed.xml", ', content_type="application/json")
        if fault == "bomb":
            return self.reply(200, b'{"add": [' + b"0," * (8 * 1024 * 1024 - 64) + b'0], "remove": [], "timestamp": 1}')
        if fault == "objects":
            # 2.4 MB of one-member objects: a tree of `[String: Any]` cost 34 times that.
            return self.reply(200, b'{"add": [' + b'{"a":0},' * 299980 + b'{"a":0}], "remove": [], "timestamp": 1}')
        if fault == "huge":
            return self.reply(200, b'{"add": [' + b'"http://example.com/' + b"x" * (40 * 1024 * 1024) + b'"], "remove": [], "timestamp": 1}')
        try:
            self.payload = json.loads(payload.decode("utf-8")) if payload else None
        except ValueError:
            return self.reply(400, b"could not decode the body as JSON", content_type="text/plain")
        if FLAVOUR == "nextcloud":
            if not path.startswith(NEXTCLOUD):
                return self.reply(404, b"<html>Page not found</html>", content_type="text/html")
            if user is None:
                return self.refuse()
            return self.nextcloud(method, path[len(NEXTCLOUD):], query, user)
        if not path.startswith("/api/2/"):
            return self.reply(404, b"<html>Page not found</html>", content_type="text/html")
        parts = path[len("/api/2/"):].split("/")
        if user is None:
            return self.refuse()
        if how == "basic":
            # Both mygpo (django.contrib.auth.login) and opodsync (session_start) open a
            # session for any call made with HTTP Basic and no session: mygpoclient, which
            # never calls login.json, goes on with the cookie.
            with LOCK:
                session = secrets.token_hex(13 if LIKE == "opodsync" else 16)
                STATE["sessions"][session] = user
            self.extra = {"Set-Cookie": "sessionid=%s; %s" % (session, "path=/; HttpOnly" if LIKE == "opodsync" else "HttpOnly; Path=/; Max-Age=31536000")}
        return self.gpodder(method, parts, query, user, how)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    # gpodder.net API v2
    def gpodder(self, method, parts, query, user, how):
        data = self.payload
        owner = parts[1] if len(parts) > 1 else ""
        if owner.endswith(".json"):
            owner = owner[:-5]
        if owner != user and LIKE != "opodsync":
            return self.reply(400, b"the user in the path is not the one logged in", content_type="text/plain")
        stamp = now()
        with LOCK:
            if LIKE == "opodsync":
                answered = self.opodsync(method, parts, query, user, how, stamp)
                if answered is not None:
                    return answered
            if parts[0] == "auth" and len(parts) == 3 and method == "POST":
                if parts[2] == "login.json":
                    # With HTTP Basic alone, the session opened above comes with its cookie.
                    return self.reply(200, b"")
                if parts[2] == "logout.json":
                    cookie = self.headers.get("Cookie") or ""
                    for part in cookie.split(";"):
                        key, _, value = part.strip().partition("=")
                        if key == "sessionid":
                            STATE["sessions"].pop(value, None)
                    return self.reply(200, b"")
            if parts[0] == "devices" and len(parts) == 3 and method == "POST":
                device = parts[2][:-5] if parts[2].endswith(".json") else parts[2]
                entry = STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "other"})
                if isinstance(data, dict):
                    if "caption" in data:
                        if not data["caption"]:
                            return self.reply(400, b"caption must not be empty", content_type="text/plain")
                        entry["caption"] = data["caption"]
                    if "type" in data:
                        if data["type"] not in ("desktop", "laptop", "mobile", "server", "other"):
                            return self.reply(400, b"invalid device type", content_type="text/plain")
                        entry["type"] = data["type"]
                return self.reply(200, b"")
            if parts[0] == "devices" and len(parts) == 2 and method == "GET":
                devices = STATE["devices"].get(user, {})
                return self.reply(200, [{"id": d, "caption": e["caption"], "type": e["type"],
                                         "subscriptions": len(subscribed(user, d, stamp))} for d, e in sorted(devices.items())])
            if parts[0] == "sync-devices" and len(parts) == 2:
                if method == "POST":
                    if not isinstance(data, dict):
                        return self.reply(400, b"expected an object", content_type="text/plain")
                    for device in data.get("stop-synchronize", []):
                        STATE["groups"][user] = [[d for d in g if d != device] for g in STATE["groups"].get(user, [])]
                    for wanted in data.get("synchronize", []):
                        merged = set(wanted)
                        for group in STATE["groups"].get(user, []):
                            if merged & set(group):
                                merged |= set(group)
                        groups = [g for g in STATE["groups"].get(user, []) if not (set(g) & merged)]
                        groups.append(sorted(merged))
                        STATE["groups"][user] = groups
                        # Synchronised devices share one list: each gets what the others have
                        # (gpodder-fastapi-router reads the group's rows together instead).
                        if LIKE == "fastapi-router":
                            continue
                        union = set()
                        for device in merged:
                            union |= subscribed(user, device, stamp)
                        for device in merged:
                            for url in sorted(union - subscribed(user, device, stamp)):
                                STATE["history"].setdefault(user, []).append((stamp, device, "add", url))
                    STATE["groups"][user] = [g for g in STATE["groups"].get(user, []) if len(g) > 1]
                grouped = [g for g in STATE["groups"].get(user, [])]
                inside = {d for g in grouped for d in g}
                return self.reply(200, {"synchronized": grouped,
                                        "not-synchronized": sorted(d for d in STATE["devices"].get(user, {}) if d not in inside)})
            if parts[0] == "subscriptions" and len(parts) == 3:
                device = parts[2][:-5] if parts[2].endswith(".json") else parts[2]
                if method == "GET":
                    try:
                        since = float(query.get("since", ["0"])[0])
                    except ValueError:
                        return self.reply(400, b"since-value is not a valid timestamp", content_type="text/plain")
                    if LIKE == "fastapi-router":
                        STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "other"})
                        group = group_of(user, device)
                        rows = [r for r in STATE["rows"].get(user, []) if r["device"] in group]
                        add = [r["url"] for r in rows if r["created"] > int(since) and not r["deleted"]]
                        remove = [r["url"] for r in rows if r["deleted"] > int(since)]
                        return self.answered("subscriptions", int(since), {"add": list(dict.fromkeys(add)), "remove": list(dict.fromkeys(remove)),
                                                                           "timestamp": int(stamp)}, device)
                    if device not in STATE["devices"].get(user, {}):
                        return self.reply(404, b"no such device", content_type="text/plain")
                    before = subscribed(user, device, since)
                    after = subscribed(user, device, stamp)
                    return self.answered("subscriptions", int(since), {"add": sorted(after - before), "remove": sorted(before - after),
                                                                       "timestamp": int(stamp)}, device)
                if method == "POST":
                    if not isinstance(data, dict):
                        return self.reply(400, b"expected an object with add and remove", content_type="text/plain")
                    add, remove = data.get("add", []), data.get("remove", [])
                    if not isinstance(add, list) or not isinstance(remove, list):
                        return self.reply(400, b"add and remove are lists", content_type="text/plain")
                    if set(add) & set(remove):
                        return self.reply(400, b"can not add and remove the same URL at the same time", content_type="text/plain")
                    STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "other"})
                    update_urls = []
                    add = [u for u in (sanitise(u, update_urls) for u in add) if u]
                    remove = [u for u in (sanitise(u, update_urls) for u in remove) if u and u not in add]
                    if LIKE == "fastapi-router":
                        for url in add:
                            fastapi_router_subscribe(user, device, url, True, stamp)
                        for url in remove:
                            fastapi_router_subscribe(user, device, url, False, stamp)
                        return self.reply(200, {"timestamp": int(stamp), "update_urls": update_urls})
                    for target in group_of(user, device):
                        for url in add:
                            STATE["history"].setdefault(user, []).append((stamp, target, "add", url))
                        for url in remove:
                            STATE["history"].setdefault(user, []).append((stamp, target, "remove", url))
                    return self.reply(200, {"timestamp": int(stamp), "update_urls": update_urls})
            if parts[0] == "episodes" and len(parts) == 2:
                if method == "GET":
                    try:
                        since = float(query.get("since", ["0"])[0])
                    except ValueError:
                        return self.reply(400, b"since-value is not a valid timestamp", content_type="text/plain")
                    device = query.get("device", [None])[0]
                    podcast = query.get("podcast", [None])[0]
                    # As mygpo: by the actions' own times, at or after `since` and before now,
                    # oldest first, at most MAX_ACTIONS; the answer's timestamp is the last one's.
                    # gpodder-fastapi-router: all of them, none held back for being "now".
                    timed = sorted(((action_time(a, received), a) for (received, a) in STATE["actions"].get(user, [])), key=lambda pair: pair[0])
                    router = LIKE == "fastapi-router"
                    found = [(t, a) for (t, a) in timed if t >= int(since) and (router or t < stamp)
                             and (device is None or a.get("device") == device) and (podcast is None or a["podcast"] == podcast)]
                    found = found if router else found[:MAX_ACTIONS]
                    timestamp = int(found[-1][0]) if found else int(stamp)
                    found = [a for (_, a) in found]
                    if query.get("aggregated", ["false"])[0] == "true":
                        found = list({a["episode"]: a for a in found}.values())
                    return self.answered("episodes", int(since), {"actions": found, "timestamp": timestamp})
                if method == "POST":
                    if not isinstance(data, list):
                        return self.reply(400, b"expected a list of actions", content_type="text/plain")
                    update_urls = []
                    accepted = []
                    for action in data:
                        if not isinstance(action, dict) or action.get("action") not in ACTIONS:
                            return self.reply(400, b"invalid action", content_type="text/plain")
                        podcast = sanitise(action.get("podcast", ""), update_urls)
                        episode = sanitise(action.get("episode", ""), update_urls)
                        if not podcast or not episode:
                            continue
                        stored = {"podcast": podcast, "episode": episode, "action": action["action"]}
                        try:
                            stored["timestamp"] = iso(parse_iso(action["timestamp"])) if action.get("timestamp") else iso(stamp)
                        except ValueError:
                            return self.reply(400, b"invalid timestamp", content_type="text/plain")
                        if action.get("device"):
                            stored["device"] = action["device"]
                            STATE["devices"].setdefault(user, {}).setdefault(action["device"], {"caption": "", "type": "other"})
                        if action["action"] == "play":
                            for key in ("started", "position", "total"):
                                if key in action:
                                    stored[key] = int(action[key])
                        accepted.append(stored)
                    for stored in accepted:
                        STATE["actions"].setdefault(user, []).append((stamp, stored))
                    return self.reply(200, {"timestamp": int(stamp), "update_urls": update_urls})
        return self.reply(404, b"no such API call", content_type="text/plain")

    # opodsync 0.5 (server/lib/OPodSync/API.php), where it differs: True once answered;
    # None: answered as mygpo would.
    def opodsync(self, method, parts, query, user, how, stamp):
        data = self.payload
        name = parts[-1][:-5] if parts[-1].endswith(".json") else parts[-1]
        if parts[0] == "auth" and len(parts) == 3 and method == "POST":
            if name == "login":
                if how == "cookie":
                    return self.refuse("No username or password provided")
                # With HTTP Basic alone, the session opened in handle_any comes with its cookie.
                return self.reply(200, {"code": 200, "message": "Logged in!"})
            if name == "logout":
                session = self.session()
                if session:
                    STATE["sessions"].pop(session, None)
                return self.said(200, "Logged out")
        if parts[0] == "devices" and len(parts) == 3 and method == "POST":
            if not re.match(r"^[\w.-]+$", name, re.ASCII):
                return self.said(400, "Invalid device ID")
            entry = STATE["devices"].setdefault(user, {}).setdefault(name, {"caption": "", "type": "other"})
            if isinstance(data, dict):
                entry.update({k: data[k] for k in ("caption", "type") if k in data})
            return self.said(200, "Device updated")
        if parts[0] == "sync-devices":
            return self.reply(200, b"")
        if parts[0] == "subscriptions" and len(parts) == 3:
            if not re.match(r"^[\w.-]+$", name, re.ASCII):
                return self.said(400, "Invalid device ID")
            if method == "GET":
                since = int(float(query.get("since", ["0"])[0] or 0))
                listed = STATE["opodsync"].get(user, {})
                return self.answered("subscriptions", since, {"add": [u for u, (s, t) in listed.items() if s and t >= since],
                                                              "remove": [u for u, (s, t) in listed.items() if not s and t >= since],
                                                              "update_urls": [], "timestamp": int(stamp)}, name)
            if method == "POST":
                add, remove = (data or {}).get("add") or [], (data or {}).get("remove") or []
                for url in add + remove:
                    if not re.match(r"^https?://[^/]+", url):
                        return self.said(400, "Invalid URL: " + url)
                for url in add:
                    opodsync_subscribe(user, url, True, stamp)
                for url in remove:
                    opodsync_subscribe(user, url, False, stamp)
                return self.reply(200, {"timestamp": int(stamp), "update_urls": []})
        if parts[0] == "episodes" and len(parts) == 2:
            if method == "GET":
                since = int(float(query.get("since", ["0"])[0] or 0))
                found = []
                for (received, action) in STATE["actions"].get(user, []):
                    epoch = int(action_time(action, received))
                    if epoch >= since:
                        shown = dict(action)
                        shown["timestamp"] = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                        found.append(shown)
                return self.answered("episodes", since, {"timestamp": int(stamp), "actions": found})
            if method == "POST":
                if not isinstance(data, list):
                    return self.said(400, "No valid array found")
                accepted = []
                for action in data:
                    if not isinstance(action, dict) or not all(k in action for k in ("podcast", "action", "episode")):
                        return self.said(400, "Missing required key in action")
                    for url in (action["podcast"], action["episode"]):
                        if not re.match(r"^https?://[^/]+", url):
                            return self.said(400, "Invalid URL: " + url)
                    stored = dict(action)
                    stored["action"] = str(action["action"]).lower()
                    stored["timestamp"] = iso(parse_iso(action["timestamp"]) if action.get("timestamp") else stamp)
                    accepted.append(stored)
                for stored in accepted:
                    # INSERT OR IGNORE INTO subscriptions: an unknown podcast becomes subscribed.
                    if stored["podcast"] not in STATE["opodsync"].get(user, {}):
                        opodsync_subscribe(user, stored["podcast"], True, stamp)
                    STATE["actions"].setdefault(user, []).append((stamp, stored))
                return self.reply(200, {"timestamp": int(stamp), "update_urls": []})
        return None

    # Nextcloud gPodder Sync
    def nextcloud(self, method, path, query, user):
        data = self.payload
        stamp = now()
        try:
            since = int(query.get("since", ["0"])[0])
        except ValueError:
            return self.reply(400, b"since is a number", content_type="text/plain")
        with LOCK:
            subscriptions = STATE["nc_subscriptions"].setdefault(user, {})
            actions = STATE["nc_actions"].setdefault(user, {})
            if path == "subscriptions" and method == "GET":
                return self.answered("subscriptions", since, {"add": sorted(u for u, (s, t) in subscriptions.items() if s and t > since),
                                                              "remove": sorted(u for u, (s, t) in subscriptions.items() if not s and t > since),
                                                              "timestamp": int(stamp)}, "-")
            if path == "subscription_change/create" and method == "POST":
                if not isinstance(data, dict):
                    return self.reply(400, b"expected add and remove", content_type="text/plain")
                # The app's `updated` is a DATETIME to the second.
                for url in data.get("add", []):
                    subscriptions[url] = (True, int(stamp))
                for url in data.get("remove", []):
                    subscriptions[url] = (False, int(stamp))
                return self.reply(200, {"timestamp": int(stamp)})
            if path == "episode_action" and method == "GET":
                return self.answered("episodes", since, {"actions": [dict((k, v) for k, v in a.items() if k != "epoch") for a in actions.values() if a["epoch"] > since],
                                                         "timestamp": int(stamp)})
            if path == "episode_action/create" and method == "POST":
                if not isinstance(data, list):
                    return self.reply(400, b"expected a list", content_type="text/plain")
                for action in data:
                    if not all(k in action for k in ("podcast", "episode", "action", "timestamp")):
                        return self.reply(500, b"Client sent incomplete or invalid data", content_type="text/plain")
                    if str(action["action"]).lower() != "play":
                        continue
                    epoch = int(parse_iso(action["timestamp"]))
                    actions[action["episode"]] = {
                        "podcast": action["podcast"], "episode": action["episode"], "guid": action.get("guid"),
                        "action": "PLAY", "timestamp": datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).isoformat(),
                        "started": action.get("started", -1), "position": action.get("position", -1), "total": action.get("total", -1),
                        "epoch": epoch,
                    }
                return self.reply(200, {"timestamp": int(stamp)})
        return self.reply(404, b"no such route", content_type="text/plain")

    def control(self, name, query, payload):
        with LOCK:
            if name == "fault":
                STATE["fault"] = query.get("mode", ["none"])[0]
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "expire":
                STATE["sessions"].clear()
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "clock":
                STATE["offset"] = float(query.get("offset", ["0"])[0])
                STATE["frozen"] = float(query["at"][0]) if "at" in query else None
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "rewrite":
                STATE["rewrites"][query["from"][0]] = query["to"][0]
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "headers":
                return self.reply(200, "".join(line + "\n" for line in STATE["headers"]).encode(), content_type="text/plain")
            if name == "redirect":
                target = query.get("to", ["-"])[0]
                STATE["redirect"] = None if target == "-" else target.rstrip("/")
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "log":
                return self.reply(200, "".join(line + "\n" for line in STATE["log"]).encode(), content_type="text/plain")
            if name == "answers":
                return self.reply(200, "".join(line + "\n" for line in STATE["answers"]).encode(), content_type="text/plain")
            if name == "state":
                stamp = now()
                users = {}
                for user in USERS:
                    users[user] = {
                        "devices": STATE["devices"].get(user, {}),
                        "groups": STATE["groups"].get(user, []),
                        "subscriptions": {d: sorted(subscribed(user, d, stamp)) for d in STATE["devices"].get(user, {})},
                        "actions": [a for (_, a) in STATE["actions"].get(user, [])],
                        "nextcloudSubscriptions": sorted(u for u, (s, _) in STATE["nc_subscriptions"].get(user, {}).items() if s),
                        "nextcloudActions": [dict((k, v) for k, v in a.items() if k != "epoch") for a in STATE["nc_actions"].get(user, {}).values()],
                    }
                return self.reply(200, users)
            if name == "subscribe":
                user, device, url = query["user"][0], query["device"][0], query["url"][0]
                kind = "remove" if query.get("remove", ["0"])[0] == "1" else "add"
                try:
                    stamp = stamp_of(query, now())
                except ValueError as error:
                    return self.reply(400, str(error).encode(), content_type="text/plain")
                if FLAVOUR == "nextcloud":
                    STATE["nc_subscriptions"].setdefault(user, {})[url] = (kind == "add", int(stamp))
                elif LIKE == "fastapi-router":
                    STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "mobile"})
                    fastapi_router_subscribe(user, device, url, kind == "add", stamp)
                elif LIKE == "opodsync":
                    STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "mobile"})
                    opodsync_subscribe(user, url, kind == "add", stamp)
                else:
                    STATE["devices"].setdefault(user, {}).setdefault(device, {"caption": "", "type": "mobile"})
                    for target in group_of(user, device):
                        STATE["history"].setdefault(user, []).append((stamp, target, kind, url))
                return self.reply(200, b"ok", content_type="text/plain")
            if name == "action":
                user = query.get("user", ["alice"])[0]
                stamp = now()
                for action in json.loads(payload.decode("utf-8")):
                    if FLAVOUR == "nextcloud":
                        epoch = int(parse_iso(action["timestamp"]))
                        entry = dict(action)
                        entry["action"] = entry["action"].upper()
                        entry["timestamp"] = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).isoformat()
                        entry["epoch"] = epoch
                        STATE["nc_actions"].setdefault(user, {})[action["episode"]] = entry
                    else:
                        STATE["actions"].setdefault(user, []).append((stamp, action))
                return self.reply(200, b"ok", content_type="text/plain")
        return self.reply(404, b"no such control", content_type="text/plain")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

"""The stage the contract fuzzer (scripts/fuzz_contract.py) plays on: a jeepney connection
that calls with a deadline, the daemon's objects as its live introspection describes them,
and the state every method needs to go deep — a subscription (a feed on the local fixture
server, with chapters and a transcript), a queue, a finished download job, a transcript
fetched, views of the fuzzer's own and of another client, a sync account on the gpodder
fixture, and a media player playing an episode of the library (Tests/Fixtures/mpris_player.py).

`Stage.restore()` puts back whatever a call that succeeded took away (a view removed, the
podcast unsubscribed, the sync logged out, the job cancelled, the queue emptied), so that
destructive methods can be called in any order and the rest is still covered."""
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(SCRIPTS), "Tests", "Fixtures")
SERVICE = "org.almanac.Almanac1"
ROOT = "/org/almanac/Almanac1"
WEATHER, PODCASTS, SYNC, PLAYER = ROOT + "/weather", ROOT + "/podcasts", ROOT + "/sync", ROOT + "/player"
DOC, VIEW, PODS = "org.almanac.Document1", "org.almanac.View1", "org.almanac.Podcasts1"
PROPS, MANAGER = "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.ObjectManager"

FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:psc="http://podlove.org/simple-chapters">
<channel><title>Fuzz Show</title><link>http://127.0.0.1/</link><description>For the fuzzer.</description>
<item><title>Chapters and words</title><guid>fuzz-1</guid><pubDate>Mon, 09 Nov 2026 06:00:00 GMT</pubDate>
  <enclosure url="/audio/one.mp3?size=200000" type="audio/mpeg" length="200000"/>
  <psc:chapters version="1.2"><psc:chapter start="00:00:00" title="Opening"/><psc:chapter start="00:01:00" title="Middle"/>
  <psc:chapter start="00:02:00" title="Closing"/></psc:chapters>
  <podcast:transcript url="/transcripts/one.json" type="application/json"/></item>
<item><title>Second</title><guid>fuzz-2</guid><pubDate>Mon, 02 Nov 2026 06:00:00 GMT</pubDate>
  <enclosure url="/audio/two.mp3?size=1000" type="audio/mpeg" length="1000"/></item>
<item><title>Third</title><guid>fuzz-3</guid><pubDate>Mon, 26 Oct 2026 06:00:00 GMT</pubDate>
  <enclosure url="/audio/three.mp3?size=1000" type="audio/mpeg" length="1000"/></item>
</channel></rss>
"""
TRANSCRIPT = '{"version": "1.0.0", "segments": [{"startTime": 1, "endTime": 4, "body": "Welcome to the fuzz show."},' \
             ' {"startTime": 61, "endTime": 65, "body": "Silence and chapters."}]}'
OPML = b'<?xml version="1.0"?><opml version="2.0"><body><outline type="rss" text="x" xmlUrl="http://127.0.0.1:1/x.xml"/></body></opml>'


class Reply:
    """What came back: `kind` is "return", "error" or "timeout"."""

    def __init__(self, kind, body=(), name="", message=""):
        self.kind, self.body, self.name, self.message = kind, body, name, message


class Caller:
    """A jeepney connection (Unix fds on) that calls almanacd with a deadline per call."""

    def __init__(self, address):
        self.connection = open_dbus_connection(bus=address, enable_fds=True)
        self.unique_name = self.connection.unique_name

    def call(self, path, interface, member, signature="", body=(), timeout=60.0):
        message = new_method_call(DBusAddress(path, bus_name=SERVICE, interface=interface), member, signature, tuple(body))
        try:
            reply = self.connection.send_and_get_reply(message, timeout=timeout)
        except TimeoutError:
            return Reply("timeout")
        if reply.header.message_type == MessageType.error:
            text = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
            return Reply("error", reply.body, reply.header.fields.get(HeaderFields.error_name, ""), text)
        return Reply("return", reply.body)

    def must(self, path, interface, member, signature="", body=(), timeout=120.0):
        reply = self.call(path, interface, member, signature, body, timeout)
        if reply.kind != "return":
            raise RuntimeError("setting up: %s.%s on %s: %s %s %s" % (interface, member, path, reply.kind, reply.name, reply.message))
        return reply.body

    def objects(self):
        """GetManagedObjects: {path: {interface: {property: (signature, value)}}}."""
        return self.must(ROOT, MANAGER, "GetManagedObjects", timeout=60)[0]

    def close(self):
        self.connection.close()


def introspect(caller, path):
    """{interface: {"methods": {name: [(arg, signature)]}, "properties": {name: (signature, access)}}}
    and the child nodes of `path`, from its live introspection."""
    xml = caller.must(path, "org.freedesktop.DBus.Introspectable", "Introspect")[0]
    node = ET.fromstring(xml)
    interfaces = {}
    for interface in node.findall("interface"):
        methods = {m.get("name"): [(a.get("name") or "arg%d" % i, a.get("type")) for i, a in enumerate(m.findall("arg"))
                                   if a.get("direction", "in") == "in"] for m in interface.findall("method")}
        properties = {p.get("name"): (p.get("type"), p.get("access")) for p in interface.findall("property")}
        interfaces[interface.get("name")] = {"methods": methods, "properties": properties}
    children = [path.rstrip("/") + "/" + child.get("name") for child in node.findall("node")]
    return interfaces, children


def discover(caller):
    """Every object of the daemon: the ObjectManager's and every node introspection reaches from the root."""
    found, todo = {}, [ROOT] + sorted(caller.objects())
    while todo:
        path = todo.pop()
        if path in found:
            continue
        interfaces, children = introspect(caller, path)
        found[path] = interfaces
        todo += children
    return found


class Stage:
    """Fixture servers, the fake player and the daemon's state; see the module's text."""

    def __init__(self, address, log=print):
        self.address, self.log = address, log
        self.folder = tempfile.mkdtemp(prefix="almanac-fuzz-")
        self.processes = []
        self.caller = Caller(address)
        self.other = Caller(address)
        self.views = {}
        self.podcast = self.job = self.feed_url = None
        self.episodes = []

    def start(self):
        with open(os.path.join(self.folder, "fuzz.xml"), "w") as f:
            f.write(FEED)
        with open(os.path.join(self.folder, "one.json"), "w") as f:
            f.write(TRANSCRIPT)
        self.feeds = self.server("feed_server.py", self.folder)
        self.sync_server = self.server("gpodder_server.py")
        self.feed_url = self.feeds + "/feeds/fuzz.xml"
        self.podcast = self.caller.must(PODCASTS, PODS, "Subscribe", "s", (self.feed_url,))[0]
        page = self.caller.must(PODCASTS, PODS, "ListEpisodes", "sa{sv}", (self.podcast, {}))[0]
        self.episodes = [e["id"][1] for e in page]
        self.audio = self.feeds + "/audio/one.mp3?size=200000"
        self.caller.must(PODCASTS, PODS, "GetTranscript", "s", (self.episodes[0],))
        self.player = self.spawn([sys.executable, os.path.join(FIXTURES, "mpris_player.py"), self.address, self.audio, "180"])
        self.restore()
        self.wait_for("the player's episode to show in NowPlaying",
                      lambda: self.caller.objects()[PLAYER]["org.almanac.Player1"]["NowPlaying"][1])
        self.wait_for("the download to complete", lambda: self.job_state() == "completed")

    def server(self, script, *arguments):
        process = self.spawn([sys.executable, os.path.join(FIXTURES, script), *arguments], stdout=subprocess.PIPE, text=True)
        return "http://127.0.0.1:%d" % int(process.stdout.readline())

    def spawn(self, argv, **options):
        process = subprocess.Popen(argv, stderr=open(os.path.join(self.folder, "fixtures.log"), "a"), **options)
        self.processes.append(process)
        return process

    def wait_for(self, what, condition, seconds=120):
        end = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > end:
                raise RuntimeError("setting up: waited %d s for %s" % (seconds, what))
            time.sleep(0.1)

    def job_state(self):
        job = self.caller.objects().get(self.job, {}).get("org.almanac.Download1", {})
        return job.get("State", ("s", ""))[1]

    def restore(self):
        """Puts back what the fuzzer relies on, each piece only when it is missing."""
        objects = self.caller.objects()
        subscribed = [p["id"][1] for p in objects[PODCASTS][PODS]["Subscriptions"][1]]
        if self.podcast not in subscribed:
            self.podcast = self.caller.must(PODCASTS, PODS, "Subscribe", "s", (self.feed_url,))[0]
        mine = {path for path, interfaces in objects.items() if VIEW in interfaces and interfaces[VIEW]["Owner"][1] == self.caller.unique_name}
        theirs = {path for path, interfaces in objects.items() if VIEW in interfaces and interfaces[VIEW]["Owner"][1] == self.other.unique_name}
        for role, caller, document, options, present in [
                ("our weather view", self.caller, WEATHER, {"location": ("s", "Berlin")}, mine),
                ("our podcasts view", self.caller, PODCASTS, {"podcast": ("s", self.podcast)}, mine),
                ("their podcasts view", self.other, PODCASTS, {}, theirs)]:
            if self.views.get(role) not in present:
                self.views[role] = caller.must(document, DOC, "AddView", "a{sv}", (options,))[0]
        for extra in mine - set(self.views.values()):
            document = WEATHER if extra.startswith(WEATHER) else PODCASTS
            self.caller.call(document, DOC, "RemoveView", "o", (extra,))
        self.restore_episodes()
        if not objects[SYNC]["org.almanac.Sync1"]["LoggedIn"][1]:
            self.caller.must(SYNC, "org.almanac.Sync1", "Login", "sssa{sv}", (self.sync_server, "alice", "s3cret", {}))
        job = objects.get(self.job, {}).get("org.almanac.Download1", {})
        if job.get("State", ("s", ""))[1] not in ("completed", "downloading", "queued"):
            self.job = self.caller.must(PODCASTS, PODS, "Download", "s", (self.episodes[0],))[0]

    def restore_episodes(self):
        """The fuzz episodes unplayed, at 0 s (10 s for the one playing), and two of them queued."""
        page = self.caller.must(PODCASTS, PODS, "ListEpisodes", "sa{sv}", (self.podcast, {}))[0]
        for episode in page:
            if episode["played"][1]:
                self.caller.must(PODCASTS, DOC, "Submit", "a{sv}", ({"episode": ("s", episode["id"][1]), "played": ("b", False)},))
        queue = [e["episode"][1] for e in self.caller.must(PODCASTS, DOC, "GetState")[1]["queue"][1]]
        if queue != self.episodes[1:3]:
            self.caller.must(PODCASTS, DOC, "Submit", "a{sv}", ({"queueClear": ("b", True)},))
            self.caller.must(PODCASTS, DOC, "Submit", "a{sv}", ({"queueAdd": ("as", self.episodes[1:3])},))

    def meaningful(self):
        """Values that name real things, by argument name: what a method needs to go past its first check."""
        return {"podcast": [self.podcast, self.feed_url, ""], "episode": self.episodes[:1] + ["fuzz-2"],
                "episodes": [self.episodes], "url": [self.feed_url, self.feeds + "/status/404", self.feeds + "/feeds/nope.xml"],
                "baseURL": ["", self.feed_url], "location": ["Berlin", "here"], "name": ["Berlin"], "term": ["fuzz"],
                "search": ["fuzz", "chapters*"], "title": ["Renamed Fuzz Show"], "server": [self.sync_server],
                "user": ["alice"], "password": ["s3cret"], "days": [1], "hours": [1], "count": [1], "offset": [1, -1],
                "data": [FEED.encode()], "opml": [OPML], "view": [self.views["our podcasts view"], self.views["their podcasts view"]]}

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        for caller in (self.caller, self.other):
            try:
                caller.close()
            except OSError:
                pass
        subprocess.run(["rm", "-rf", self.folder])

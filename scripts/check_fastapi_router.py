#!/usr/bin/env python3
"""Opt-in check (not run by `make test`): almanacd against gpodder-fastapi-router (a
third-party gpodder.net-API server from PyPI), with gPodder's own client library, mygpoclient,
as the phone. Its subject is the second's edge (issue 41): that server stamps a subscription
change with the whole second it was made and answers `since=T` with the changes *after* T, so
a change made in the very second the desktop was last answered is one the desktop must ask
for again. Each run makes the phone subscribe in that second on purpose and checks that the
next `almanac sync now` brings the podcast; then what the phone plays there, twice in a row.

gpodder-fastapi-router needs Python 3.12 or later (Debian 12 has 3.11), so it runs in a venv
this script does not make:

    python3.12 -m venv /tmp/gfr-venv     # any 3.12: pyenv's, or a distribution's
    /tmp/gfr-venv/bin/pip install 'gpodder-fastapi-router==0.1.3' uvicorn aiosqlite mygpoclient
    swift build
    /tmp/gfr-venv/bin/python scripts/check_fastapi_router.py --runs 10

The server runs from that venv on 127.0.0.1 with a new SQLite file in a temporary folder, one
user made through its `register.json`; one almanacd on a private bus, the fixture feeds.
Prints a line per check and closes with "N passed, N failed"; exits 1 when one failed.
"""
import argparse
import base64
import datetime
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import almanac_harness as harness  # noqa: E402
from sync_check import Checks, Desktop  # noqa: E402

try:
    import gpodder_router  # noqa: F401
    import uvicorn  # noqa: F401
    from mygpoclient import api
except ImportError as missing:
    sys.exit("check_fastapi_router.py: %s; run it with the python of a venv that has gpodder-fastapi-router, uvicorn, "
             "aiosqlite and mygpoclient (the docstring says how)" % missing)

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--runs", type=int, default=10, help="how many times the phone subscribes in the desktop's second")
parser.add_argument("--bin", default=os.path.join(harness.REPO, ".build", "debug"), help="where almanacd and almanac are")
options = parser.parse_args()

checks = Checks(detail_limit=600)
check = checks.check
USER, PASSWORD = "alice", "s3cret pw"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


folder = tempfile.mkdtemp(prefix="almanac-fastapi-router-")
feeds_folder = os.path.join(folder, "feeds")
os.makedirs(feeds_folder)
server_db = os.path.join(folder, "gpodder.db")
processes, desktop, process = [], None, None
try:
    feeds = harness.FixtureServer("feed_server.py", feeds_folder)
    processes.append(feeds)

    # The server: the package's own `attach` on a bare FastAPI app, as its README shows.
    port = free_port()
    server = "http://127.0.0.1:%d" % port
    with open(os.path.join(folder, "gfr_app.py"), "w") as app:
        app.write(textwrap.dedent("""\
            from fastapi import FastAPI
            from gpodder_router import GPodderConfig, attach
            app = FastAPI()
            attach(app, config=GPodderConfig(database_url="sqlite+aiosqlite:///%s", base_url="%s", bcrypt_rounds=4))
            """ % (server_db, server)))
    uvicorn_log = open(os.path.join(folder, "uvicorn.log"), "w")
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "gfr_app:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
                               cwd=folder, stdout=uvicorn_log, stderr=uvicorn_log)
    for _ in range(600):
        try:
            body = json.dumps({"password": PASSWORD}).encode()
            urllib.request.urlopen(urllib.request.Request(server + "/api/2/auth/%s/register.json" % USER, data=body,
                                                          headers={"Content-Type": "application/json"}), timeout=5).read()
            break
        except OSError:
            if process.poll() is not None:
                sys.exit("gpodder-fastapi-router did not start; see %s" % uvicorn_log.name)
            time.sleep(0.1)
    print("server %s (gpodder-fastapi-router %s), mygpoclient %s" % (server, subprocess.run(
        [sys.executable, "-m", "pip", "show", "gpodder-fastapi-router"], capture_output=True, text=True).stdout.split("Version: ")[-1].split("\n")[0],
        getattr(sys.modules["mygpoclient"], "__version__", "?")), flush=True)

    desktop = Desktop(options.bin, folder)
    almanac, sync, podcasts = desktop.almanac, desktop.sync, desktop.podcasts

    def asked_since():
        """The `timestamp` of the server's last subscription answer, as the desktop keeps it."""
        with sqlite3.connect("file:%s?mode=ro" % os.path.join(folder, "state", "almanac.sqlite"), uri=True) as state:
            return state.execute('SELECT "subscriptionsSince" FROM "syncAccount"').fetchone()[0]

    def stamped(url):
        """The second the server stamped the phone's subscription of `url` with."""
        with sqlite3.connect("file:%s?mode=ro" % server_db, uri=True) as db:
            row = db.execute("SELECT created FROM gpodder_subscriptions WHERE podcast_url = ? ORDER BY id DESC", (url,)).fetchone()
        return row[0] if row else None

    def publish(name, episodes=1):
        items = "".join("<item><title>%s %d</title><guid>%s-%d</guid><pubDate>Sun, 0%d Nov 2026 06:00:00 GMT</pubDate>"
                        "<itunes:duration>1:00:00</itunes:duration><enclosure url=\"%s/audio/%s-%d.mp3?size=1000\" type=\"audio/mpeg\" length=\"1000\"/></item>"
                        % (name, n, name, n, n, feeds.base, name, n) for n in range(1, episodes + 1))
        with open(os.path.join(feeds_folder, name + ".xml"), "w") as feed:
            feed.write('<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">'
                       "<channel><title>%s</title>%s</channel></rss>" % (name, items))
        return feeds.base + "/feeds/" + name + ".xml"

    # The phone: mygpoclient, with two things this server needs that it does not do. Its
    # urllib answers a 401 with the password only when the challenge names a realm, and this
    # server's `WWW-Authenticate: Basic` names none: the phone logs in first (HTTP Basic on
    # login.json, as gPodder does) and goes on with the cookie. And it posts its JSON with
    # urllib's default `Content-Type: application/x-www-form-urlencoded`, which FastAPI does
    # not read as JSON (422): the phone's requests with a body say application/json.
    class JsonBody(urllib.request.BaseHandler):
        handler_order = 100

        def http_request(self, request):
            if request.data is not None:
                request.add_unredirected_header("Content-Type", "application/json")
            return request

    client = api.MygPodderClient(USER, PASSWORD, server)
    client._client._opener.add_handler(JsonBody())
    login = urllib.request.Request(server + "/api/2/auth/%s/login.json" % USER, data=b"", method="POST")
    login.add_unredirected_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode())
    client._client._opener.open(login).read()
    phone = "mygpoclient-phone"
    client.update_device_settings(phone, caption="mygpoclient phone", type="mobile")
    status, out, err = almanac("sync", "login", server, USER, "--device", "desktop", stdin=PASSWORD + "\n")
    check("almanac sync login", status == 0, err)
    desktop.wait_for_first_sync(300)

    # The phone subscribes in the very second of the desktop's last answer.
    same_second, arrived = 0, 0
    for run in range(1, options.runs + 1):
        url = publish("show%d" % run)
        for attempt in range(20):
            # A sync starting early in a second leaves the rest of it for the phone.
            time.sleep(1.05 - (time.time() % 1))
            sync()
            since = asked_since()
            if int(time.time()) == since:
                client.update_subscriptions(phone, add_urls=[url])
                break
        else:
            check("run %d: the phone could not be put in the desktop's second" % run, False)
            continue
        at = stamped(url)
        same_second += at == since
        report = sync()
        came = url in podcasts()
        arrived += came
        check("run %d: a subscription stamped %s, in the second the desktop was answered (%s), reaches it"
              % (run, at, since), came and at == since, (at, since, report))
    print("same second: %d of %d runs; arrived: %d of %d" % (same_second, options.runs, arrived, options.runs), flush=True)

    # What the phone plays arrives once: the same action, read again in the next sync (the
    # desktop asks from a minute before), changes nothing, nor does it undo a change made here.
    url = publish("played", episodes=2)
    time.sleep(1.1)  # out of the second of the desktop's last answer: this part is about actions
    client.update_subscriptions(phone, add_urls=[url])
    sync()
    if url not in podcasts():
        check("the phone's subscription of the played show reaches the desktop", False, podcasts())
        raise SystemExit
    episode = feeds.base + "/audio/played-1.mp3?size=1000"
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    client.upload_episode_actions([api.EpisodeAction(url, episode, "play", device=phone, timestamp=stamp, started=0, position=1200, total=3600)])
    first = sync()
    listed = {e["title"]: e for e in json.loads(almanac("episodes", podcasts()[url], "--all", "--json")[1])["episodes"]}
    check("the phone's position reaches the desktop", first.get("episodesUpdated") == 1 and listed["played 1"]["position"] == 1200, (first, listed))
    almanac("episode", "position", listed["played 1"]["id"], "5:00")
    second = sync()
    again = {e["title"]: e for e in json.loads(almanac("episodes", podcasts()[url], "--all", "--json")[1])["episodes"]}
    check("read again, it changes nothing (the desktop's newer position stays)",
          second.get("episodesUpdated") == 0 and again["played 1"]["position"] == 300, (second, again["played 1"]))
    third = sync()
    check("and a sync after that has nothing to do", third.get("episodesUpdated") == 0 and third.get("sent") == 0
          and not third.get("subscribed") and not third.get("unsubscribed"), third)
    almanac("sync", "logout")
except SystemExit:
    pass
finally:
    if desktop:
        desktop.stop()
    for fixture in processes:
        fixture.stop()
    if process and process.poll() is None:
        process.terminate()
        process.wait(10)

checks.exit()

#!/usr/bin/python3
"""Opt-in check (not run by `make test`): almanacd and gPodder's own client library,
mygpoclient, as two devices of one account on a gpodder.net-API server. What one does, the
other sees: subscriptions and play positions both ways, and an unsubscription.

Needs Debian's python3-mygpoclient (`apt-get install python3-mygpoclient`; run with
/usr/bin/python3, which has it) and the debug binaries (`swift build`). By default the server
is Tests/Fixtures/gpodder_server.py (`--like mygpo`, or `--like opodsync`); `--server URL
--user NAME` points it at a real one on this machine instead (the password on standard
input), such as opodsync run as docs/sync.md ("Checked against") says. Everything is on
127.0.0.1: a private bus, one almanacd, the fixture feeds.

    /usr/bin/python3 scripts/check_mygpoclient.py [--like mygpo|opodsync]
    echo PASSWORD | /usr/bin/python3 scripts/check_mygpoclient.py --server http://127.0.0.1:8711 --user alice

Prints a line per check and closes with "N passed, N failed"; exits 1 when one failed.
"""
import argparse
import datetime
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import almanac_harness as harness  # noqa: E402
from sync_check import Checks, Desktop  # noqa: E402

try:
    from mygpoclient import api
except ImportError:
    sys.exit("check_mygpoclient.py: mygpoclient is missing: apt-get install python3-mygpoclient, and run with /usr/bin/python3")

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--server", help="a gpodder.net-API server to use instead of the fixture")
parser.add_argument("--user", default="alice")
parser.add_argument("--like", default="mygpo", choices=["mygpo", "opodsync"], help="how the fixture answers")
parser.add_argument("--bin", default=os.path.join(harness.REPO, ".build", "debug"), help="where almanacd and almanac are")
options = parser.parse_args()

checks = Checks()
check = checks.check


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


folder = tempfile.mkdtemp(prefix="almanac-mygpoclient-")
feeds_folder = os.path.join(folder, "feeds")
os.makedirs(feeds_folder)
servers, desktop = [], None
try:
    feeds = harness.FixtureServer("feed_server.py", feeds_folder)
    servers.append(feeds)
    items = "".join(
        "<item><title>Episode %d</title><guid>ep-%d</guid><pubDate>Sun, 0%d Nov 2026 06:00:00 GMT</pubDate>"
        "<itunes:duration>1:00:00</itunes:duration><enclosure url=\"%s/audio/ep%d.mp3?size=1000\" type=\"audio/mpeg\" length=\"1000\"/></item>"
        % (n, n, n, feeds.base, n) for n in (1, 2, 3))
    with open(os.path.join(feeds_folder, "show.xml"), "w") as feed:
        feed.write('<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">'
                   "<channel><title>The mygpoclient Show</title>%s</channel></rss>" % items)
    feed_url = feeds.base + "/feeds/show.xml"
    episode = {n: "%s/audio/ep%d.mp3?size=1000" % (feeds.base, n) for n in (1, 2, 3)}

    if options.server:
        server, password = options.server.rstrip("/"), sys.stdin.readline().rstrip("\n")
    else:
        fixture = harness.FixtureServer("gpodder_server.py", "--like", options.like)
        servers.append(fixture)
        server, password = fixture.base, "s3cret"
    print("server %s (%s), mygpoclient %s" % (server, "real" if options.server else "fixture, like " + options.like,
                                            getattr(sys.modules["mygpoclient"], "__version__", "?")), flush=True)

    desktop = Desktop(options.bin, folder)
    almanac, sync, podcasts = desktop.almanac, desktop.sync, desktop.podcasts

    def episodes():
        """The episodes of the show this check serves (the account may have others)."""
        podcast = podcasts().get(feed_url)
        if not podcast:
            return {}
        _, out, _ = almanac("episodes", podcast, "--all", "--json")
        return {e.get("title"): e for e in json.loads(out).get("episodes", [])} if out.strip() else {}

    # Two devices: mygpoclient's first, then almanacd's, whose login joins it to the other
    # devices (gpodder.net keeps subscriptions per device; opodsync one list per user).
    client = api.MygPodderClient(options.user, password, server)
    other = "mygpoclient-check-%d" % os.getpid()
    client.update_device_settings(other, caption="mygpoclient check", type="mobile")
    device = "almanac-check-%d" % os.getpid()
    status, out, err = almanac("sync", "login", server, options.user, "--device", device, stdin=password + "\n")
    check("almanac sync login", status == 0, err)
    desktop.wait_for_first_sync(200)
    check("mygpoclient sees almanacd's device", device in [d.device_id for d in client.get_devices()])

    # mygpoclient subscribes and plays; almanacd follows.
    client.update_subscriptions(other, add_urls=[feed_url])
    report = sync()
    check("a subscription from mygpoclient reaches almanacd", feed_url in podcasts(), (report, podcasts()))
    client.upload_episode_actions([api.EpisodeAction(feed_url, episode[1], "play", device=other, timestamp=utc_now(),
                                                     started=0, position=1200, total=3600)])
    report = sync()
    position = episodes().get("Episode 1", {}).get("position")
    check("a position from mygpoclient reaches almanacd", report.get("episodesUpdated") == 1 and position == 1200, (report, position))

    # almanacd plays; mygpoclient sees it.
    since = client.download_episode_actions(0).since
    listed = {e.get("title"): e.get("id") for e in episodes().values()}
    status, _, err = almanac("episode", "played", listed.get("Episode 2", "?"))
    report = sync()
    check("almanacd sends a played mark", status == 0 and report.get("sent") == 1, (err, report))
    changes = client.download_episode_actions(max(since - 60, 0))
    mine = [a for a in changes.actions if a.episode == episode[2] and a.device == device]
    check("mygpoclient reads almanacd's action", bool(mine) and mine[-1].action == "play" and mine[-1].position == mine[-1].total == 3600,
          [a.__dict__ for a in changes.actions])
    check("almanacd's timestamp is one mygpoclient takes", all(a.timestamp for a in mine))

    # almanacd subscribes; mygpoclient lists it.
    other_feed = feeds.base + "/feeds/second.xml"
    with open(os.path.join(feeds_folder, "second.xml"), "w") as feed:
        feed.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Second</title>'
                   '<item><title>S1</title><guid>s1</guid><enclosure url="%s/audio/s1.mp3?size=10" type="audio/mpeg"/></item></channel></rss>' % feeds.base)
    almanac("podcasts", "subscribe", other_feed)
    sync()
    pulled = client.pull_subscriptions(other, 0)
    check("a subscription from almanacd reaches mygpoclient", other_feed in pulled.add, pulled.__dict__)

    # mygpoclient unsubscribes; almanacd gives it up.
    time.sleep(1)
    client.update_subscriptions(other, remove_urls=[feed_url])
    report = sync()
    check("an unsubscription from mygpoclient reaches almanacd", feed_url in report.get("unsubscribed", []), report)
    report = sync()
    check("then nothing goes round", report.get("sent") == 0 and not report.get("subscribed") and not report.get("unsubscribed")
          and report.get("episodesUpdated") == 0, report)
    almanac("sync", "logout")
finally:
    if desktop:
        desktop.stop()
    for fixture in servers:
        fixture.stop()

checks.exit()

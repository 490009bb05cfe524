"""`make stress`, section heavy (scripts/stress.py runs it).

Calls whose cost grows with their input or the library, while another client measures how
soon its Peer.Ping and Properties.Get are answered: InspectData of a 25 MB feed, and eight
ListEpisodes searches at once (what a search-as-you-type client sends) over a library of
20,000 episodes. Such calls run in tasks of their own, off the connection's thread
(reliability.md), so the other client waits for nothing of theirs."""
import os
import threading
import time

import dbus

from stress_common import PODCASTS, answer_times, call, connect, log, record, record_answer_times, Section

PODCASTS1 = "org.almanac.Podcasts1"


def feed(title, items, notes):
    body = "".join('<item><title>%s episode %d</title><guid>%s-%d</guid><pubDate>Mon, 01 Jan 2024 10:%02d:%02d GMT</pubDate>'
                   '<description>%s</description><enclosure url="https://example.org/%s/%d.mp3" type="audio/mpeg" length="1000"/></item>'
                   % (title, n, title, n, (n // 60) % 60, n % 60, notes % n, title, n) for n in range(items))
    return '<rss version="2.0"><channel><title>%s</title>%s</channel></rss>' % (title, body)


def while_busy(client, work):
    """Runs `work` in a thread; meanwhile `client` measures. Returns (answer times, seconds, error)."""
    outcome = {}

    def run_work():
        try:
            work()
        except Exception as error:  # noqa: BLE001 - reported in the row
            outcome["error"] = error
    worker = threading.Thread(target=run_work)
    start = time.monotonic()
    worker.start()
    during = []
    while worker.is_alive():
        during += answer_times(client, 5)
    worker.join()
    return during, time.monotonic() - start, outcome.get("error")


def run():
    with Section("heavy") as s:
        folder = os.path.join(s.folder, "feeds")
        os.makedirs(folder)
        # Ten feeds of 2,000 episodes: 20,000 in the library, every one found by "notes".
        for n in range(10):
            with open(os.path.join(folder, "library-%d.xml" % n), "w") as f:
                f.write(feed("show%d" % n, 2000, "Show notes of episode %d, with words to search for."))
        server = s.server("feed_server.py", folder)
        bus = s.bus()
        s.daemon(bus, ("--provider", "real", "--weather-interval", "3600", "--podcast-interval", "3600"))
        client = connect(bus)
        answer_times(client, 25)
        baseline = answer_times(client, 150)

        # InspectData of a 25 MB feed.
        big = feed("big", 22_500, "%d " + "Long show notes, paragraph after paragraph. " * 20).encode()
        heavy = connect(bus)
        answered = {}

        def inspect():
            try:
                call(heavy, PODCASTS, PODCASTS1, "InspectData", "ays", (dbus.ByteArray(big), ""), timeout=300)
                answered["outcome"] = "parsed"
            except dbus.DBusException as error:
                answered["outcome"] = error.get_dbus_name()
        during, took, error = while_busy(client, inspect)
        record_answer_times("heavy", "InspectData of a %.0f MB feed (%s after %.1f s)" % (len(big) / 1e6, answered.get("outcome", error), took),
                            during, baseline, took)

        # Eight ListEpisodes searches at once over 20,000 episodes, five rounds.
        t = time.monotonic()
        for n in range(10):
            call(client, PODCASTS, PODCASTS1, "Subscribe", "s", (server.base + "/feeds/library-%d.xml" % n,), timeout=300)
        total = call(client, PODCASTS, PODCASTS1, "ListEpisodes", "sa{sv}", ("", dbus.Dictionary({"limit": dbus.UInt32(1)}, signature="sv")))[1]["total"]
        log("  library of %d episodes subscribed in %.1f s" % (total, time.monotonic() - t))
        searchers = [connect(bus) for _ in range(8)]
        query = dbus.Dictionary({"search": "notes words", "limit": dbus.UInt32(50)}, signature="sv")

        def search_rounds():
            def rounds(connection):
                for _ in range(5):
                    call(connection, PODCASTS, PODCASTS1, "ListEpisodes", "sa{sv}", ("", query), timeout=300)
            threads = [threading.Thread(target=rounds, args=(c,)) for c in searchers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        during, took, error = while_busy(client, search_rounds)
        if error:
            record("heavy", "8 ListEpisodes searches at once", "answered", False, "raised %s" % error)
        record_answer_times("heavy", "8 ListEpisodes searches at once over %d episodes, 5 rounds (%.1f s)" % (total, took),
                            during, baseline, took)

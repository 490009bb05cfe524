"""`make stress`, section network (scripts/stress.py runs it).

The fixture server misbehaves: errors reported, last good data kept, backoff, no leaks."""
import threading
import time

import dbus

from stress_common import WEATHER, PODCASTS, DOC, record, connect, call, get, all_episodes, Section


def run():
    with Section("network") as s:
        feeds = s.feeds()
        bus = s.bus()
        daemon = s.daemon(bus, ("--provider", "real", "--weather-interval", "3600", "--podcast-interval", "2"))
        client = connect(bus)
        flaky_url = feeds.base + "/flaky/dates.xml"
        flaky = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (flaky_url,)))
        steady = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (feeds.base + "/feeds/durations.xml",)))
        good = len(all_episodes(client, flaky))
        call(client, PODCASTS, "org.almanac.Podcasts1", "RefreshPodcast", "s", (flaky,))

        # Backoff: a feed read every 2 s that fails is read ever less often.
        feeds.get("/fault/500")
        before = int(feeds.get("/flaky-count"))
        time.sleep(24)
        reads = int(feeds.get("/flaky-count")) - before
        last_error = str(get(client, PODCASTS, DOC, "LastError"))
        record("network", "feed answering 500 for 24 s, interval 2 s (12 reads without backoff)", "≤ 6 reads; LastError names it",
               reads <= 6 and flaky in last_error, "%d reads; LastError %r" % (reads, last_error[:80]))

        def round_of_faults(label):
            outcomes = {}
            for fault in ["500", "304", "redirect-loop", "garbage", "truncated", "big", "stall"]:
                feeds.get("/fault/" + fault)
                other = {}

                def meanwhile():
                    # The daemon's other work while this feed misbehaves: reads and another feed.
                    c = connect(bus)
                    times = []
                    for _ in range(20):
                        t = time.monotonic()
                        call(c, WEATHER, DOC, "GetState")
                        times.append(time.monotonic() - t)
                        time.sleep(0.05)
                    t = time.monotonic()
                    call(c, PODCASTS, "org.almanac.Podcasts1", "RefreshPodcast", "s", (steady,))
                    other["refresh"] = time.monotonic() - t
                    other["max"] = max(times)
                    c.close()

                helper = threading.Thread(target=meanwhile)
                helper.start()
                start = time.monotonic()
                try:
                    call(client, PODCASTS, "org.almanac.Podcasts1", "RefreshPodcast", "s", (flaky,), timeout=90)
                    error = None
                except dbus.DBusException as failure:
                    error = failure.get_dbus_name()
                took = time.monotonic() - start
                helper.join()
                kept = len(all_episodes(client, flaky))
                outcomes[fault] = (error, took, kept, other.get("max", 99), other.get("refresh", 99))
            feeds.get("/fault/none")
            call(client, PODCASTS, "org.almanac.Podcasts1", "RefreshPodcast", "s", (flaky,))
            for fault, (error, took, kept, slowest, refresh) in outcomes.items():
                expected_error = None if fault == "304" else "org.almanac.Error.FetchFailed"
                record("network", "%s: feed %s" % (label, fault), "%s, episodes kept, other calls < 1 s" % (expected_error or "success"),
                       error == expected_error and kept == good and slowest < 1 and refresh < 5,
                       "%s after %.1f s; %d/%d episodes kept; meanwhile GetState ≤ %.0f ms, another feed read in %.0f ms"
                       % (error or "success", took, kept, good, slowest * 1000, refresh * 1000))

        time.sleep(2)
        fds0, threads0 = daemon.fds(), daemon.threads()
        round_of_faults("round 1")
        time.sleep(3)
        fds1, threads1 = daemon.fds(), daemon.threads()
        round_of_faults("round 2")
        time.sleep(3)
        fds2, threads2 = daemon.fds(), daemon.threads()
        record("network", "file descriptors and threads across two rounds of every fault", "round 2 adds none (±2)",
               fds2 - fds1 <= 2 and threads2 - threads1 <= 2,
               "fds %d → %d → %d, threads %d → %d → %d" % (fds0, fds1, fds2, threads0, threads1, threads2))

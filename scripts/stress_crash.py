"""`make stress`, section crash (scripts/stress.py runs it).

kill -9 at random moments during acknowledged writes; after each restart every
acknowledged write is there and the store passes PRAGMA integrity_check."""
import os
import random
import threading
import time

import dbus

from stress_common import WEATHER, PODCASTS, DOC, SEED, log, record, connect, call, get, all_episodes, integrity, Section


def run():
    total = int(os.environ.get("STRESS_WRITES", "1000"))
    rng = random.Random(SEED)
    with Section("crash") as s:
        feeds = s.feeds()
        bus = s.bus()
        daemon = s.daemon(bus)
        client = connect(bus)
        # The demo library is read just after the name is taken: wait for it.
        deadline = time.monotonic() + 60
        episodes = [e["id"] for e in all_episodes(client)]
        while len(episodes) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            episodes = [e["id"] for e in all_episodes(client)]
        played_episodes, position_episodes = episodes[: len(episodes) // 2], episodes[len(episodes) // 2:]
        # key -> (last acknowledged value, values written after it without an answer)
        expected = {}
        acknowledged, kills, problems, subscription = 0, 0, [], 0
        integrity_results = []

        def write(kind):
            nonlocal subscription
            if kind == "units":
                value = rng.choice(["metric", "imperial"])
                return ("units",), value, lambda c: call(c, WEATHER, DOC, "Submit", "a{sv}", (dbus.Dictionary({"units": value}, signature="sv"),))
            if kind == "locations":
                value = sorted({"Place%d" % rng.randrange(300) for _ in range(rng.randrange(1, 8))})
                return ("locations",), value, lambda c: call(
                    c, WEATHER, DOC, "Submit", "a{sv}", (dbus.Dictionary({"locations": dbus.Array(value, signature="s")}, signature="sv"),))
            if kind == "played":
                episode, value = rng.choice(played_episodes), rng.choice([True, False])
                return ("played", episode), value, lambda c: call(
                    c, PODCASTS, DOC, "Submit", "a{sv}", (dbus.Dictionary({"episode": episode, "played": value}, signature="sv"),))
            if kind == "position":
                episode, value = rng.choice(position_episodes), float(rng.randrange(1, 100000))
                return ("position", episode), value, lambda c: call(
                    c, PODCASTS, DOC, "Submit", "a{sv}", (dbus.Dictionary({"episode": episode, "position": value}, signature="sv"),))
            subscription += 1
            url = feeds.base + "/feeds/durations.xml?n=%d" % subscription
            return ("subscribed", url), True, lambda c: call(c, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (url,))

        def verify():
            c = connect(bus)
            try:
                state = call(c, WEATHER, DOC, "GetState")[1]
                subscriptions = {str(p["feedURL"]) for p in get(c, PODCASTS, "org.almanac.Podcasts1", "Subscriptions")}
                known = {str(e["id"]): e for e in all_episodes(c)}
                for key, (value, uncertain) in expected.items():
                    if key[0] == "units":
                        actual = str(state["units"])
                    elif key[0] == "locations":
                        actual = sorted(str(x) for x in state["savedLocations"])
                    elif key[0] == "played":
                        actual = bool(known[key[1]]["played"])
                    elif key[0] == "position":
                        actual = float(known[key[1]]["position"])
                    else:
                        actual = key[1] in subscriptions
                    if value is not None and actual != value and actual not in uncertain:
                        problems.append("%s: %r, acknowledged %r (unanswered: %r)" % (key, actual, value, uncertain))
            finally:
                c.close()

        began = time.monotonic()
        while acknowledged < total and time.monotonic() - began < 300:
            killer = threading.Timer(rng.uniform(0.05, 1.5), daemon.kill9)
            killer.start()
            while acknowledged < total:
                kind = rng.choice(["units", "locations", "played", "position", "subscribe"])
                key, value, perform = write(kind)
                try:
                    perform(client)
                except dbus.DBusException as error:
                    gone = error.get_dbus_name() in ("org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
                                                     "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.Disconnected")
                    if not gone:
                        problems.append("refused %s: %s" % (kind, error))
                        continue
                    previous, uncertain = expected.get(key, (None, []))
                    expected[key] = (previous, uncertain + [value])
                    break
                expected[key] = (value, [])
                acknowledged += 1
            killer.cancel()
            if daemon.alive():
                daemon.kill9()
            kills += 1
            integrity_results.append(integrity(daemon.state))
            client.close()
            daemon.start()
            client = connect(bus)
            verify()
        bad = [r for r in integrity_results if r != "ok"]
        record("crash", "kill -9 at random moments during %d acknowledged writes (subscribe, played, position, locations, units)" % total,
               "every acknowledged write there after restart; integrity_check ok",
               not problems and not bad and acknowledged >= total,
               "%d writes acknowledged across %d kills, %d lost, integrity_check: %s"
               % (acknowledged, kills, len(problems), "ok ×%d" % len(integrity_results) if not bad else bad))
        for problem in problems[:10]:
            log("    " + problem)

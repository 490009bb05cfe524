"""make soak's month, planned from a seed before it runs: the podcasts and their hosts, when
their episodes come out, the saved places and when official alerts are in force there, when
the laptop sleeps and the network drops, when the 50 view clients come and go, when the user
listens, what the phone does, and which episodes the user keeps.

Times are simulated Unix seconds, UTC. `World(seed, days)` is plain data the driver
(scripts/soak.py) follows and checks against; `plan()` is what the fixture processes read.
"""
import random

DAY = 86_400
HOUR = 3_600
# Monday 12 October 2026, 08:00 UTC: the month crosses the end of summer time in Europe
# (25 October), which the weather fixture follows for Berlin (`/control?dst=on`).
START = 1_791_763_200 + 8 * HOUR
HOSTS = ["127.0.0.%d" % n for n in range(2, 22)]
# Saved places: where each alert source answers (tests' coordinates, WeatherAlertsTests).
BERLIN, SPRINGFIELD, OSLO, LILLEHAMMER, TOKYO = "Berlin", "37.21533,-93.29824", "59.9139,10.7522", "61.1153,10.4662", "35.6895,139.6917"
PLACES = [BERLIN, SPRINGFIELD, OSLO, LILLEHAMMER, TOKYO]
# Places only views ask for, while they live (the other Springfields).
VIEW_PLACES = ["42.10148,-72.58981", "39.80172,-89.64371"]
# Which saved places each source's alert reaches.
COVERS = {"nws": [SPRINGFIELD], "metalerts": [OSLO, LILLEHAMMER], "marine": [OSLO], "meteoalarm": [BERLIN]}
# When the user listens, hours of each day (UTC).
LISTENING = [(7.5, 8.5), (12.25, 13.0), (18.0, 21.5)]


class World:
    def __init__(self, seed, days=30):
        self.random = random.Random(seed)
        self.days = days
        self.start = START
        self.end = START + days * DAY
        self.feeds = self.plan_feeds()
        self.settings = self.plan_settings()
        self.sleeps = self.plan_sleeps()
        self.drops = self.plan_drops()
        self.alerts = self.plan_alerts()
        self.views = self.plan_views()
        self.listening = self.plan_listening()
        self.phone = self.plan_phone()
        self.keeps = [(self.start + DAY + 2 * HOUR, feed) for feed in self.keeping() if days > 1]

    # ---- podcasts

    def plan_feeds(self):
        feeds = []
        for i in range(200):
            period = self.random.choice([6, 12, 24, 24, 24, 48, 72, 168, 168]) * HOUR
            feeds.append({
                "id": "f%03d" % i, "host": HOSTS[i % len(HOSTS)], "title": "Soak podcast %03d" % i,
                "period": period, "offset": self.random.randrange(0, period, 60),
                "length": self.random.choice([900, 1200, 1800, 2700]),
                "size": self.random.randrange(20_000, 120_000),
                # Some servers say how often to read them (RSS <ttl>, minutes).
                "ttl": self.random.choice([0, 0, 0, 0, 60, 120, 240, 720]),
            })
        return feeds

    def plan_settings(self):
        """Each podcast's own settings, as `almanac podcasts settings ID NAME VALUE` takes them."""
        settings = {}
        for i, feed in enumerate(self.feeds):
            own = {}
            if i % 10 == 3:
                own["refresh-interval"] = self.random.choice(["2h", "6h", "12h"])
            if i < 24:
                own["auto-download"] = "on"
                own["keep"] = str(2 + i % 4)
            if i < 24 and i % 3 == 0:
                own["delete-played-after"] = self.random.choice(["6h", "1d", "2d"])
            if i in (0, 1, 2, 3, 4):
                own["auto-queue"] = "on"
            if own:
                settings[feed["id"]] = own
        return settings

    def keeping(self):
        """The podcasts whose newest download the user keeps on the second day."""
        return [feed["id"] for i, feed in enumerate(self.feeds) if i < 24 and "delete-played-after" not in self.settings[feed["id"]]][:3]

    # ---- the machine

    def plan_sleeps(self):
        """Nights (about 23:00 to 07:00) and one or two naps a day of 10 to 90 minutes."""
        sleeps = []
        for day in range(self.days + 1):
            base = self.start - 8 * HOUR + day * DAY
            night = (base + 23 * HOUR + self.random.randrange(0, HOUR), base + DAY + 6 * HOUR + self.random.randrange(0, 90 * 60))
            for _ in range(self.random.choice([1, 2])):
                begin = base + self.random.randrange(9 * HOUR, 21 * HOUR)
                sleeps.append((begin, begin + self.random.randrange(10 * 60, 90 * 60)))
            sleeps.append(night)
        return merge([s for s in sleeps if s[0] > self.start + HOUR and s[0] < self.end - HOUR])

    def plan_drops(self):
        """Two or three network drops a day, of 3 to 20 minutes, while the laptop is awake."""
        drops = []
        for day in range(self.days):
            base = self.start - 8 * HOUR + day * DAY
            for _ in range(self.random.choice([2, 3])):
                begin = base + self.random.randrange(8 * HOUR, 22 * HOUR)
                drop = (begin, begin + self.random.randrange(3 * 60, 20 * 60))
                if drop[0] > self.start + HOUR and drop[1] < self.end - HOUR and self.awake(drop[0] - 30 * 60, drop[1] + 30 * 60):
                    drops.append(drop)
        return merge(drops)

    def awake(self, begin, end):
        return not any(s < end and begin < e for s, e in self.sleeps)

    def online(self, begin, end):
        return self.awake(begin, end) and not any(s < end and begin < e for s, e in self.drops)

    # ---- weather

    def plan_alerts(self):
        """Each source's alert in force in windows of 2 to 18 hours, every 1 to 4 days."""
        windows, n = [], 0
        for source in ["nws", "metalerts", "marine", "meteoalarm"]:
            moment = self.start + self.random.randrange(2 * HOUR, 2 * DAY)
            while moment < self.end - DAY:
                length = self.random.randrange(2 * HOUR, 18 * HOUR, 60)
                n += 1
                windows.append({"source": source, "onset": moment, "expires": moment + length, "n": n, "places": COVERS[source]})
                moment += length + self.random.randrange(DAY, 4 * DAY, 60)
        return windows

    # ---- views

    def plan_views(self):
        """[time, client, action, argument]: five clients (status bars) stay the month; 45 come
        and go, each session of 10 minutes to 12 hours with one to three views."""
        actions, adds = [], 0

        def view(client, moment):
            nonlocal adds
            if self.random.random() < 0.6:
                options = {"document": "weather", "location": self.random.choice(PLACES + VIEW_PLACES)}
            elif self.random.random() < 0.5:
                options = {"document": "podcasts"}
            else:
                options = {"document": "podcasts", "podcast": self.random.choice(self.feeds)["id"]}
            options["id"] = adds
            actions.append([moment, client, "add", options])
            adds += 1
            return adds - 1

        for client in range(5):
            actions.append([self.start + 60, client, "connect", None])
            view(client, self.start + 60)
        for client in range(5, 50):
            moment = self.start + self.random.randrange(60, 12 * HOUR)
            while moment < self.end - HOUR:
                length = self.random.randrange(10 * 60, 12 * HOUR)
                leave = min(moment + length, self.end - HOUR)
                actions.append([moment, client, "connect", None])
                numbers = [view(client, moment + k) for k in range(self.random.choice([1, 2, 3]))]
                if len(numbers) > 1 and self.random.random() < 0.3:
                    actions.append([moment + length // 2, client, "remove", numbers[0]])
                actions.append([leave, client, "leave", None])
                moment = leave + self.random.randrange(HOUR, 36 * HOUR)
        actions.sort(key=lambda a: (a[0], ["connect", "add", "remove", "leave"].index(a[2])))
        return actions

    def plan_listening(self):
        spans = []
        for day in range(self.days):
            base = self.start - 8 * HOUR + day * DAY
            for begin, end in LISTENING:
                span = (base + int(begin * HOUR), base + int(end * HOUR))
                if span[0] > self.start and span[1] < self.end:
                    spans.append(span)
        return spans

    def plan_phone(self):
        """Each evening the phone plays the newest episode of two auto-download podcasts (the
        sync brings it here, where the download may then go by its podcast's rule)."""
        players = [feed["id"] for feed in self.feeds if "delete-played-after" in self.settings.get(feed["id"], {})]
        return [(self.start - 8 * HOUR + day * DAY + 19 * HOUR + 30 * 60, self.random.sample(players, 2)) for day in range(1, self.days)]

    # ---- for the fixtures

    def plan(self, ports=None):
        return {"start": self.start, "feeds": self.feeds, "views": self.views}

    def alert_schedule(self):
        return [{"source": w["source"], "onset": w["onset"], "expires": w["expires"], "n": w["n"]} for w in self.alerts]

    def newest_episode(self, feed, moment):
        return int((moment - self.start - feed["offset"]) // feed["period"])


def merge(spans):
    """Sorted, overlapping spans joined."""
    merged = []
    for begin, end in sorted(spans):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return merged

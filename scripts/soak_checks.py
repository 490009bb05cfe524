"""What make soak measures each simulated day and checks at the end (scripts/soak.py runs it).

Each day: almanacd's resident memory (VmRSS) and peak (VmHWM), open descriptors, threads, the
sleeps (timers) its clock holds, `PRAGMA integrity_check` of a copy of its state, and the
downloads against their rules. At the end: day 1 beside the last day; every feed, forecast
and alert read within its cadence (from the fixtures' request logs, in simulated time, the
laptop's sleeps and the network's drops left out); every episode the feeds published there;
the alerts (checked as they began and ended, `on_alerts`); the player's way through the
queue; the sync; the view clients; no error in the daemon's log but those the scenario
causes (EXPECTED_ERRORS).
"""
import base64
import calendar
import json
import os
import re
import shlex
import shutil
import sqlite3
import statistics
import tempfile
import time
import urllib.request

from soak_world import DAY, HOUR, PLACES, COVERS
from stress_common import all_episodes, call, get, integrity, log

# Errors the month causes on purpose: none so far (a network drop is a warning at most).
EXPECTED_ERRORS = []
# How late past its cadence a read may come (awake and online time): the simulated clock
# waits for the daemon, so a read is due to the second; a minute allows for a retry's jitter.
SLACK = 60
# Memory (docs/reliability.md, "A month in minutes"): the first days warm the daemon up (SQLite's
# page cache, the first transfers, a library that grows from nothing: +3.5 MiB, done between
# day 3 and day 6), after which what it holds follows the library. So a run of two weeks or
# more compares the last day with the most of the first WARM_DAYS days, allowing RSS_NOISE plus
# RSS_PER_EPISODE for each episode the library gained since day WARM_DAYS (a fresh daemon
# measured 0.44 KiB an episode; days 4-15 of a run grew 0.3). A shorter run compares with
# day 1, allowing 10% (at least 4 MiB).
# Each thread the daemon's pool adds takes about 1.5 MiB of resident memory for good (its
# stack, and a malloc arena of its own): days 2-3 and 13-14 of the 30-day run, each +1 thread,
# grew 1.6 and 1.3 MiB, the days around them 0.1-0.3. The thread check allows +2 threads; this
# allows their memory: RSS_PER_THREAD for each thread beyond the first week's most.
WARM_DAYS = 7
RSS_NOISE = 1024
RSS_PER_EPISODE = 0.5
RSS_PER_THREAD = 1536
RSS_ALLOWANCE = 0.10


def result(what, bound, held, measured):
    log("  %s  %s — %s (bound: %s)" % ("PASS" if held else "FAIL", what, measured, bound))
    return {"what": what, "bound": bound, "held": bool(held), "measured": measured}


def post_json(url, value, user):
    request = urllib.request.Request(url, data=json.dumps(value).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": "Basic " + base64.b64encode(("%s:%s" % user).encode()).decode()})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def cpu_seconds(pid):
    """User and system time of process `pid` so far, seconds."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def descriptors(pid):
    """Process `pid`'s open descriptors by kind: TCP and unix sockets, pipes, event and
    timer descriptors, files."""
    inodes = {}
    for table, kind in [("tcp", "tcp"), ("tcp6", "tcp"), ("unix", "unix")]:
        try:
            with open("/proc/%d/net/%s" % (pid, table)) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    inodes[fields[9] if kind == "tcp" else fields[6]] = kind
        except (OSError, IndexError, StopIteration):
            pass
    kinds = {}
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            kind = inodes.get(target[8:-1], "socket")
        elif target.startswith("pipe:"):
            kind = "pipe"
        elif target.startswith("anon_inode:"):
            kind = target[11:].strip("[]")
        else:
            kind = "file"
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def proc(pid):
    values = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "Threads"):
                values[key] = int(rest.split()[0])
    values["fds"] = len(os.listdir("/proc/%d/fd" % pid))
    return values


# ---------------------------------------------------------------------------------------
# Each day

def measure(soak, day):
    status = proc(soak.daemon.pid)
    report = soak.clock.report()
    episodes = all_episodes(soak.connection)
    check = integrity(os.path.join(soak.folder, "state"))
    cleanup = check_downloads(soak, episodes)
    errors = unexpected_errors(soak)
    kept_backups = backups(soak)
    figures = {"day": day, "at": soak.clock.now, "rss": status["VmRSS"], "hwm": status["VmHWM"], "anon": status["RssAnon"], "fds": status["fds"],
               "threads": status["Threads"], "sleepers": report["sleepers"], "late": report["late"],
               "bus_rss": proc(soak.bus.process.pid)["VmRSS"], "episodes": len(episodes),
               "downloaded": sum(1 for e in episodes if e.get("file")), "integrity": check, "cleanup": cleanup,
               "errors": len(errors), "moves": soak.clock.moves, "seconds": round(time.monotonic() - soak.began, 1),
               "cpu": {name: round(cpu_seconds(pid), 1) for name, pid in soak.pids().items()},
               "fd_kinds": descriptors(soak.daemon.pid), "backups": len(kept_backups),
               "newest_backup": kept_backups[-1][0] if kept_backups else None,
               "backup_integrity": backup_integrity(kept_backups[-1][1]) if kept_backups else None}
    figures["line"] = ("RSS %d KiB (peak %d, anonymous %d), %d fds %s, %d threads, %d timers, %d episodes (%d downloaded), integrity %s, "
                       "downloads %s" % (figures["rss"], figures["hwm"], figures["anon"], figures["fds"], figures["fd_kinds"], figures["threads"], figures["sleepers"],
                                         figures["episodes"], figures["downloaded"], check, "ok" if not cleanup else cleanup[:3]))
    return figures


def backups(soak):
    """The library's backups kept now, oldest first: (time taken, path), from their names
    (almanac-YYYYMMDD-HHMMSS-REASON.sqlite, UTC)."""
    folder = os.path.join(soak.folder, "state", "backups")
    found = []
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        match = re.match(r"almanac-(\d{8}-\d{6})-", name)
        if match and name.endswith(".sqlite"):
            taken = calendar.timegm(time.strptime(match.group(1), "%Y%m%d-%H%M%S"))
            found.append((taken, os.path.join(folder, name)))
    return sorted(found)


def backup_integrity(path):
    database = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return database.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        database.close()


def files_on_disk(soak):
    found = set()
    for folder, _, files in os.walk(os.path.join(soak.folder, "data")):
        for name in files:
            found.add(os.path.join(folder, name))
    return found


def check_downloads(soak, episodes):
    """What the downloads' rules say against what is on disk now: the files there are exactly
    those the library records; no podcast holds more than its `keep` (a file the player has open
    is spared); no played download stays past its podcast's `delete-played-after`; every kept
    episode's file is there. Returns what is wrong (empty: nothing)."""
    problems = []
    recorded = {str(e["file"]): e for e in episodes if e.get("file")}
    on_disk = {f for f in files_on_disk(soak) if not f.endswith(".part") and "/." not in f}
    for stray in sorted(on_disk - set(recorded))[:3]:
        problems.append("a file no episode has: %s" % stray)
    for missing in sorted(set(recorded) - on_disk)[:3]:
        problems.append("an episode's file is gone: %s" % missing)
    playing = player_file(soak)
    by_podcast = {}
    for episode in recorded.values():
        by_podcast.setdefault(str(episode["podcast"]), []).append(episode)
    feed_of = {podcast: feed for feed, podcast in soak.podcast_ids.items()}
    for podcast, downloads in by_podcast.items():
        settings = soak.world.settings.get(feed_of.get(podcast), {})
        keep = int(settings.get("keep", 0))
        counted = [e for e in downloads if not e.get("kept") and str(e["file"]) != playing]
        if keep and len(counted) > keep:
            problems.append("%s keeps %d downloads, more than %d" % (feed_of.get(podcast), len(counted), keep))
    for episode_id, file in soak.kept:
        if file not in on_disk:
            problems.append("the kept episode %s lost its file" % episode_id)
    # Played downloads of podcasts that delete them: none stays past its time; one that went
    # since the last look had its time come by now (it went by its rule, not early).
    played_at = played_times(soak)
    # When each episode was first seen played: a played episode marked unplayed and played
    # again (the player opening what the phone had finished) gets a later `playedAt`, after
    # its download may have gone by the first one.
    first_played = getattr(soak, "first_played", {})
    for episode_id, moment in played_at.items():
        first_played[episode_id] = min(moment, first_played.get(episode_id, moment))
    soak.first_played = first_played
    previous = getattr(soak, "files_seen", {})
    for file, episode in list(recorded.items()) + [(f, e) for f, e in previous.items() if f not in recorded]:
        after = delete_played_after(soak, feed_of.get(str(episode["podcast"])))
        when = played_at.get(str(episode["id"]))
        if after is None or when is None or episode.get("kept") or file == playing:
            continue
        if file in recorded and when + after < soak.clock.now - SLACK:
            problems.append("%s stays %.0f s past its time (played, deleted after %d s)" % (file, soak.clock.now - when - after, after))
        first = first_played.get(str(episode["id"]), when)
        if file not in recorded and first + after > soak.clock.now + SLACK and not beyond_keep(soak, episode, recorded):
            problems.append("%s went %.0f s before its time" % (file, first + after - soak.clock.now))
    soak.files_seen = recorded
    return problems


def beyond_keep(soak, episode, recorded):
    """Whether `episode`'s download may have gone by its podcast's other rule, `keep` N: N
    newer downloads of the podcast (not kept) are there now. A podcast may have both rules
    (keep 2, delete played after a day): its played download then goes before its time when
    newer ones push it out."""
    feed_of = {podcast: feed for feed, podcast in soak.podcast_ids.items()}
    keep = int(soak.world.settings.get(feed_of.get(str(episode["podcast"])), {}).get("keep", 0))
    newer = [e for e in recorded.values() if str(e["podcast"]) == str(episode["podcast"]) and not e.get("kept")
             and int(e["published"]) > int(episode["published"])]
    return keep > 0 and len(newer) >= keep


def delete_played_after(soak, feed_id):
    value = soak.world.settings.get(feed_id, {}).get("delete-played-after")
    return {"6h": 6 * HOUR, "1d": DAY, "2d": 2 * DAY}[value] if value else None


def played_times(soak):
    """When each episode was first marked played, from a copy of the state (the store's
    `episodePlayed`, which the cleanup's rule reads)."""
    copy = tempfile.mkdtemp(prefix="almanac-soak-store-")
    try:
        for suffix in ["", "-wal"]:
            source = os.path.join(soak.folder, "state", "almanac.sqlite" + suffix)
            if os.path.exists(source):
                shutil.copy(source, os.path.join(copy, "almanac.sqlite" + suffix))
        database = sqlite3.connect(os.path.join(copy, "almanac.sqlite"))
        try:
            return {row[0]: row[1] for row in database.execute("SELECT episodeID, playedAt FROM episodePlayed")}
        finally:
            database.close()
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def player_file(soak):
    try:
        state = json.loads(soak.player_call("History"))
    except Exception:  # noqa: BLE001 - the player is looked at, not relied on
        return None
    url = state.get("url") or ""
    return urllib.request.url2pathname(url[7:]) if url.startswith("file://") else None


def unexpected_errors(soak):
    with open(soak.logs["almanacd"], errors="replace") as f:
        lines = [line.rstrip("\n") for line in f if line.startswith("error: ")]
    return [line for line in lines if not any(re.search(pattern, line) for pattern, _ in EXPECTED_ERRORS)]


# ---------------------------------------------------------------------------------------
# Alerts, as they begin and end

def alert_check_time(world, moment, interval):
    """When to look at an alert that begins or ends at `moment`: once the daemon has been awake
    and online for a whole alerts interval after it (a sleep or a drop ends in a catch-up,
    which fetches the alerts at once, but the next one is looked past too)."""
    blockers = world.sleeps + world.drops
    since = moment
    while True:
        check = since + interval + SLACK
        overlapping = [end for begin, end in blockers if begin < check and end > since]
        if not overlapping:
            return check
        since = max(overlapping)


def check_alert(soak, window, present):
    answer = json.loads(soak.cli("alerts", "--json", check=False).stdout or "{}")
    marker = "fixture.w%d." % window["n"]
    shown = {place: [a for a in answer.get("alerts", []) if a.get("location") == place and marker in str(a.get("id"))] for place in PLACES}
    when = time.strftime("%d %b %H:%M", time.gmtime(soak.clock.now))
    if present:
        held = all(shown[place] for place in window["places"]) and not any(shown[p] for p in PLACES if p not in window["places"])
        what = "alert %d (%s) shown once begun" % (window["n"], window["source"])
    else:
        held = not any(shown.values())
        what = "alert %d (%s) gone once ended" % (window["n"], window["source"])
    outcome = {"what": what, "bound": "within the alerts interval (awake, online)", "held": held,
               "measured": "%s: %s" % (when, {p: len(a) for p, a in shown.items() if a} or "none shown"), "kind": "alert"}
    if not held:
        log("  FAIL  %s — %s; failures: %s" % (what, outcome["measured"], answer.get("failures")))
    return outcome


# ---------------------------------------------------------------------------------------
# At the end

def blocked(world, begin, end):
    """Seconds of [begin, end] the laptop slept or the network was down."""
    return sum(max(0, min(end, e) - max(begin, b)) for b, e in world.sleeps + world.drops)


def read_log(path, pattern):
    reads = {}
    with open(path) as f:
        for line in f:
            moment, _, rest = line.partition(" ")
            match = re.search(pattern, rest)
            if match and rest.split()[-1] in ("200", "304"):
                reads.setdefault(match.group(1), []).append(float(moment))
    return reads


def cadence(world, reads, interval_of, end):
    """The worst lateness of `reads` (item -> times) against each item's interval, counting
    only the time the laptop was awake and online. Returns (late items, worst, count)."""
    late, worst, count = [], 0.0, 0
    for item, times in reads.items():
        interval = interval_of(item)
        times = sorted(times) + [end]
        for a, b in zip(times, times[1:]):
            count += 1
            gap = (b - a) - blocked(world, a, b)
            excess = gap - interval
            worst = max(worst, excess)
            if excess > SLACK:
                late.append((item, time.strftime("%d %b %H:%M", time.gmtime(a)), round(gap)))
    return late, worst, count


def descriptor_checks(days):
    """Open descriptors: those other than TCP, day 1 beside the last day; TCP connections apart,
    as libcurl keeps idle ones to each server for reuse (closed after 118 s of real time, when
    next it looks), so how many are open at the evening's measure varies with what was
    fetched last (4 to 19): the median of the last week against the median of the first."""
    def other(d):
        return d["fds"] - d["fd_kinds"].get("tcp", 0)
    first, last = days[0], days[-1]
    week = max(1, min(7, len(days) // 2))
    early, late = [d["fd_kinds"].get("tcp", 0) for d in days[:week]], [d["fd_kinds"].get("tcp", 0) for d in days[-week:]]
    return [
        result("open descriptors but TCP connections, day 1 → day %d" % last["day"], "+2 at most", other(last) - other(first) <= 2,
               "%d → %d (most %d; all descriptors %d → %d, most %d)" % (other(first), other(last), max(other(d) for d in days),
                                                                      first["fds"], last["fds"], max(d["fds"] for d in days))),
        result("TCP connections kept open, the first %d days beside the last %d" % (week, week), "median +2 at most",
               statistics.median(late) - statistics.median(early) <= 2,
               "median %g → %g (each day: %s)" % (statistics.median(early), statistics.median(late),
                                                  " ".join(str(d["fd_kinds"].get("tcp", 0)) for d in days))),
    ]


def memory(days):
    """almanacd's resident memory on the last day against the warmed-up first week (see
    WARM_DAYS), or against day 1 in a short run."""
    first, last = days[0], days[-1]
    line = "day 1 %d KiB (anonymous %d)" % (first["rss"], first["anon"])
    if len(days) >= 2 * WARM_DAYS:
        week = days[:WARM_DAYS]
        base = max(week, key=lambda d: d["rss"])
        gained = last["episodes"] - week[-1]["episodes"]
        threads = max(0, last["threads"] - max(d["threads"] for d in week))
        allowance = RSS_NOISE + int(RSS_PER_EPISODE * max(gained, 0)) + RSS_PER_THREAD * threads
        line += ", the first week's most (day %d) %d KiB (anonymous %d), day %d %d KiB (anonymous %d); %+d episodes since day %d, %+d threads" % (
            base["day"], base["rss"], base["anon"], last["day"], last["rss"], last["anon"], gained, week[-1]["day"], threads)
        return result("almanacd's resident memory, the first week's most → day %d" % last["day"],
                      "+%d KiB at most (1 MiB, 0.5 KiB an episode gained since day %d, 1.5 MiB a thread more)" % (allowance, WARM_DAYS),
                      last["rss"] - base["rss"] <= allowance, line)
    allowance = max(4096, int(first["rss"] * RSS_ALLOWANCE))
    line += ", day %d %d KiB (anonymous %d)" % (last["day"], last["rss"], last["anon"])
    return result("almanacd's resident memory, day 1 → day %d" % last["day"], "+%d KiB at most (10%%, at least 4 MiB)" % allowance,
                  last["rss"] - first["rss"] <= allowance, line)


def feed_interval(soak, feed_id):
    feed = next(f for f in soak.world.feeds if f["id"] == feed_id)
    own = soak.world.settings.get(feed_id, {}).get("refresh-interval")
    if own:
        return {"2h": 7200, "6h": 6 * 3600, "12h": 12 * 3600}[own]
    return feed["ttl"] * 60 if feed["ttl"] else soak.intervals["podcast"]


def thread_check(days):
    """Threads, like memory: on runs of 14 days or more the last day beside the first week's
    most, since almanacd starts some threads only when first needed (the search lanes, a
    player's worker, a download's), so day 1 is counted before they exist; a shorter run
    beside day 1. A thread a day (a leak) still shows by far."""
    first, last = days[0], days[-1]
    if len(days) >= 14:
        week = days[:7]
        most = max(d["threads"] for d in week)
        return result("threads, the first week's most → day %d" % last["day"], "+2 at most", last["threads"] - most <= 2,
                      "day 1 %d, the first week's most %d → %d (most %d)" % (first["threads"], most, last["threads"], max(d["threads"] for d in days)))
    return result("threads, day 1 → day %d" % last["day"], "+2 at most", last["threads"] - first["threads"] <= 2,
                  "%d → %d (most %d)" % (first["threads"], last["threads"], max(d["threads"] for d in days)))


def final(soak):
    world, results = soak.world, list(soak.results)
    end = soak.clock.now
    days = soak.days
    first, last = days[0], days[-1]
    # Memory, descriptors, threads, timers: the last day beside the first.
    results.append(memory(days))
    results += descriptor_checks(days)
    results.append(thread_check(days))
    results.append(result("timers (sleeps on the clock), day 1 → day %d" % last["day"], "+5 at most", last["sleepers"] - first["sleepers"] <= 5,
                          "%d → %d (most %d)" % (first["sleepers"], last["sleepers"], max(d["sleepers"] for d in days))))
    # Refreshes on time.
    feeds = read_log(soak.logs["feeds"], r"/feed/(f\d+)\.xml")
    late, worst, count = cadence(world, feeds, lambda f: feed_interval(soak, f), end)
    results.append(result("every feed read within its cadence (own interval, <ttl>, else hourly)", "late by ≤ %d s" % SLACK, not late,
                          "%d reads of %d feeds; worst %+.0f s; late: %s" % (count, len(feeds), worst, late[:3] or "none")))
    places = {"52.52437": "Berlin", "37.21533": "Springfield", "59.9139": "Oslo", "61.1153": "Lillehammer", "35.6895": "Tokyo"}
    forecasts = read_log(soak.logs["weather"], r"^/v1/forecast\?latitude=([0-9.-]+)&")
    forecasts = {places[k]: v for k, v in forecasts.items() if k in places}
    late, worst, count = cadence(world, forecasts, lambda _: soak.intervals["weather"], end)
    results.append(result("every saved place's forecast within %d s" % soak.intervals["weather"], "late by ≤ %d s" % SLACK,
                          not late and len(forecasts) == 5, "%d reads of %d places; worst %+.0f s; late: %s" % (count, len(forecasts), worst, late[:3] or "none")))
    alerts = read_log(soak.logs["weather"], r"^(/alerts/active\?point=37\.2|/weatherapi/metalerts/2\.0/current\.json\?lat=59|"
                                            r"/weatherapi/metalerts/2\.0/current\.json\?lat=61|/api/v1/warnings/feeds-germany)")
    late, worst, count = cadence(world, alerts, lambda _: soak.intervals["alerts"], end)
    results.append(result("every alert source asked within %d s" % soak.intervals["alerts"], "late by ≤ %d s" % SLACK,
                          not late and len(alerts) == 4, "%d reads of %d sources; worst %+.0f s; late: %s" % (count, len(alerts), worst, late[:3] or "none")))
    alert_checks = [r for r in soak.results if r.get("kind") == "alert"]
    results = [r for r in results if r.get("kind") != "alert"]
    results.append(result("alerts shown from their onset and gone at their expiry", "each, within the alerts interval",
                          all(r["held"] for r in alert_checks), "%d of %d checks held; %s" % (
                              sum(r["held"] for r in alert_checks), len(alert_checks),
                              [r["what"] + ": " + r["measured"] for r in alert_checks if not r["held"]][:3] or "none failed")))
    results += final_library(soak, feeds, end)
    results += final_rest(soak)
    return results


def final_library(soak, feeds, end):
    results = []
    episodes = all_episodes(soak.connection)
    have = {}
    for episode in episodes:
        have.setdefault(str(episode["podcast"]), set()).add(str(episode["title"]))
    missing = []
    for feed in soak.world.feeds:
        # From the 30 the feed held when subscribed to the newest at its last read.
        first = soak.world.newest_episode(feed, soak.world.start) - 29
        newest = soak.world.newest_episode(feed, max(feeds.get(feed["id"], [soak.world.start])))
        titles = have.get(soak.podcast_ids[feed["id"]], set())
        for n in range(first, newest + 1):
            if "%s, episode %d" % (feed["title"], n) not in titles:
                missing.append("%s %d" % (feed["id"], n))
    results.append(result("every episode a feed published is in the library", "none missing", not missing,
                          "%d episodes; missing: %s" % (len(episodes), missing[:5] or "none")))
    # Daily backups: the newest at most a day old (and a little: taken when the day is up), the
    # last 7 kept once a week has passed, each newest whole.
    stale = [d["day"] for d in soak.days if d["newest_backup"] is None or d["at"] - d["newest_backup"] > DAY + SLACK]
    counts = [d["backups"] for d in soak.days]
    wrong_count = [d["day"] for d in soak.days if d["backups"] != min(7, d["day"] + 1) and d["backups"] != min(7, d["day"])]
    broken = [d["day"] for d in soak.days if d["backup_integrity"] not in (None, "ok")]
    results.append(result("daily backups, the last 7 kept, each whole", "newest ≤ 1 day old; min(day, 7) kept; integrity_check ok",
                          not stale and not wrong_count and not broken,
                          "kept per day %s; stale on days %s; wrong count on days %s; damaged on days %s" % (
                              "/".join(str(c) for c in counts), stale or "none", wrong_count or "none", broken or "none")))
    bad = [d for d in soak.days if d["integrity"] != "ok"]
    results.append(result("PRAGMA integrity_check each day", "ok", not bad, "ok on %d of %d days" % (len(soak.days) - len(bad), len(soak.days))))
    wrong = [(d["day"], d["cleanup"]) for d in soak.days if d["cleanup"]] + [(c["at"], c["problems"]) for c in soak.cleanup_checks if c["problems"]]
    deletions = cleanup_log(soak)
    results.append(result("cleanup deletes what its rule says and nothing else", "files = the library's; keep N held; kept files stay; each deletion by its rule",
                          not wrong and not deletions["wrong"],
                          "%d checks; %d deleted (%s); wrong: %s" % (len(soak.cleanup_checks) + len(soak.days), deletions["count"],
                                                                     deletions["reasons"], (wrong + deletions["wrong"])[:3] or "none")))
    return results


def cleanup_log(soak):
    """The deletions almanacd logged, each against the rule it gave."""
    counts, wrong = {}, []
    kept = {file for _, file in soak.kept}
    with open(soak.logs["almanacd"], errors="replace") as f:
        for line in f:
            # `deleted a download episode=… file=… reason="…"`: the journal's metadata, quoted
            # where a value holds a space, read back as the shell reads words.
            if not line.startswith("deleted a download "):
                continue
            metadata = dict(word.split("=", 1) for word in shlex.split(line[len("deleted a download "):]) if "=" in word)
            file, reason = metadata.get("file", ""), metadata.get("reason", "")
            match = re.fullmatch(r"only the newest (\d+) downloads? of its podcast are kept|it was played.*", reason)
            if not match:
                continue
            key = "keep" if match.group(1) else "played"
            counts[key] = counts.get(key, 0) + 1
            if file in kept:
                wrong.append("deleted the kept file %s" % file)
            title = os.path.basename(file)
            feed = next((f for f in soak.world.feeds if title.startswith(f["title"] + ",")), None)
            settings = soak.world.settings.get(feed["id"], {}) if feed else {}
            if key == "keep" and settings.get("keep") != match.group(1):
                wrong.append("%s: keep %s, its podcast keeps %s" % (file, match.group(1), settings.get("keep")))
            if key == "played" and "delete-played-after" not in settings:
                wrong.append("%s deleted as played, its podcast deletes none" % file)
    return {"count": sum(counts.values()), "reasons": ", ".join("%s %d" % kv for kv in sorted(counts.items())) or "none", "wrong": wrong}


def final_rest(soak):
    results = []
    report = soak.clock.report()
    results.append(result("no sleep began after its deadline (the driver waited for the daemon)", "0", report["late"] == 0,
                          "%d late of %d moves of the clock" % (report["late"], soak.clock.moves)))
    errors = unexpected_errors(soak)
    results.append(result("no error in almanacd's log the scenario did not cause", "none", not errors,
                          "%d; %s" % (len(errors), errors[:3] or "none")))
    sync = json.loads(soak.cli("sync", "status", "--json").stdout)
    synced = sync.get("lastSyncUnix") or 0
    results.append(result("hourly sync", "last sync within the hour, no error", soak.clock.now - synced <= 3600 + SLACK and not sync.get("lastError"),
                          "last %.0f s before the end; error: %s; queued %s" % (soak.clock.now - synced, sync.get("lastError"), sync.get("queued"))))
    played = {}
    for episode in all_episodes(soak.connection):
        played[str(episode.get("audioURL", ""))] = bool(episode.get("played"))
    phone = [url for _, url in soak.phone_plays if url in played]
    results.append(result("the phone's plays reach the laptop", "each played here", all(played[u] for u in phone),
                          "%d of %d" % (sum(played[u] for u in phone), len(phone))))
    history = json.loads(soak.player_call("History"))["history"]
    by_daemon = [h for h in history if h["by"] == "almanacd"]
    results.append(result("the player plays the queue through (Almanac plays on)", "plays on at each end, every episode played",
                          len(by_daemon) > 0, "%d episodes opened, %d by Almanac playing on" % (len(history), len(by_daemon))))
    with_views = views_check(soak)
    results.append(with_views)
    still = [name for name, (process, _) in soak.watches.items() if process.poll() is not None]
    results.append(result("`almanac watch` the month long", "still running", not still, "stopped: %s" % (still or "none")))
    return results


def views_check(soak):
    soak.views.terminate()
    soak.views.wait(30)
    with open(soak.views_stats) as f:
        stats = json.load(f)
    heard = [v for v in stats["views"].values()]
    return result("50 view clients: %d views came and went" % len(heard), "every call answered", not stats["failures"],
                  "%d views, %d updates heard, %d resyncs; failures: %s" % (len(heard), sum(v["updates"] for v in heard),
                                                                            sum(v["resyncs"] for v in heard), stats["failures"][:3] or "none"))


# ---------------------------------------------------------------------------------------
# The report

def keep_logs(soak):
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".build", "soak-logs")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(soak.folder):
        path = os.path.join(soak.folder, name)
        if os.path.isfile(path) and (name.endswith(".log") or name.endswith(".out") or name.endswith(".json")):
            shutil.copy(path, out)


def report(soak, results):
    log("== soak: %d simulated days in %.0f s (%d moves of the clock)" % (len(soak.days), soak.seconds, soak.clock.moves))
    print("| day | RSS KiB | peak KiB | fds | threads | timers | episodes | downloaded | integrity | backups | real s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for d in soak.days:
        print("| %d | %d | %d | %d | %d | %d | %d | %d | %s | %d | %s |" % (d["day"], d["rss"], d["hwm"], d["fds"], d["threads"], d["sleepers"],
                                                                        d["episodes"], d["downloaded"], d["integrity"], d["backups"], d["seconds"]))
    print()
    print("| what | bound | held | measured |")
    print("|---|---|---|---|")
    for r in results:
        print("| %s | %s | %s | %s |" % (r["what"], r["bound"], "yes" if r["held"] else "**no**", r["measured"]))
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".build", "soak-results.json")
    with open(out, "w") as f:
        json.dump({"seed": soak.seed, "days": soak.days, "results": results, "seconds": soak.seconds, "moves": soak.clock.moves}, f, indent=1)

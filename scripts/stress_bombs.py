"""`make stress`, section bombs (scripts/stress.py runs it).

Documents made to cost memory out of all proportion to their size, served by the fixture
server on 127.0.0.1 to a daemon whose feed is there too (so the links may be followed,
docs/security.md): three 8 MiB JSON transcripts `{"segments":[0,0,…]}` asked for at once,
then one of each other kind that is cheap to serve (an 8 MiB WebVTT file of blank lines,
a 4 MiB chapters file `{"chapters":[0,0,…]}`). Each row reads almanacd's peak resident set
(VmHWM, /proc) before and after, and checks the daemon still answers."""
import os
import threading

import dbus

from stress_common import PODCASTS, call, connect, log, record, all_episodes, Section

PODCASTS1 = "org.almanac.Podcasts1"
MIB = 1024 * 1024
# The bound for three 8 MiB transcript bombs at once.
BOUND_MIB = 128


def vm_hwm_kib(pid):
    """The peak resident set of process `pid` so far, KiB."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def reset_hwm(pid):
    """Starts VmHWM again from the present resident set (Linux's clear_refs, value 5)."""
    with open("/proc/%d/clear_refs" % pid, "w") as f:
        f.write("5")


def json_bomb(key, size):
    """`{"<key>":[0,0,…]}` of `size` bytes."""
    head, tail = b'{"%s":[' % key.encode(), b"0]}"
    zeros = (size - len(head) - len(tail)) // 2
    return head + b"0," * zeros + tail


def feed(items):
    """A feed of one episode per (title, transcript file, its type, chapters file or None)."""
    body = ""
    for n, (title, transcript, kind, chapters) in enumerate(items):
        body += ('<item><title>%s</title><guid>bomb-%d</guid><pubDate>Mon, 0%d Nov 2026 06:00:00 GMT</pubDate>'
                 '<enclosure url="/audio/b%d?size=1000" type="audio/mpeg" length="1000"/>' % (title, n, n + 1, n))
        if transcript:
            body += '<podcast:transcript url="/transcripts/%s" type="%s"/>' % (transcript, kind)
        if chapters:
            body += '<podcast:chapters url="/chapters/%s" type="application/json+chapters"/>' % chapters
        body += "</item>"
    return ('<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Bombs</title>%s'
            '</channel></rss>' % body)


def run():
    with Section("bombs") as s:
        folder = os.path.join(s.folder, "feeds")
        os.makedirs(folder)
        for n in range(3):
            with open(os.path.join(folder, "bomb%d.json" % n), "wb") as f:
                f.write(json_bomb("segments", 8 * MIB))
        with open(os.path.join(folder, "blank.vtt"), "wb") as f:
            f.write(b"WEBVTT\n" + b"\n" * (8 * MIB - 7))
        with open(os.path.join(folder, "chapters.json"), "wb") as f:
            f.write(json_bomb("chapters", 4 * MIB))
        items = [("JSON bomb %d" % n, "bomb%d.json" % n, "application/json", None) for n in range(3)]
        items += [("WebVTT bomb", "blank.vtt", "text/vtt", None), ("Chapters bomb", None, None, "chapters.json")]
        with open(os.path.join(folder, "bombs.xml"), "w") as f:
            f.write(feed(items))
        server = s.server("feed_server.py", folder)
        bus = s.bus()
        daemon = s.daemon(bus, ("--provider", "real", "--weather-interval", "3600", "--podcast-interval", "3600"))
        client = connect(bus)
        podcast = str(call(client, PODCASTS, PODCASTS1, "Subscribe", "s", (server.base + "/feeds/bombs.xml",)))
        ids = {str(e["title"]): str(e["id"]) for e in all_episodes(client, podcast)}

        def transcript(title, outcome):
            c = connect(bus)
            try:
                call(c, PODCASTS, PODCASTS1, "GetTranscript", "s", (ids[title],), timeout=120)
                outcome[title] = "read"
            except dbus.DBusException as error:
                outcome[title] = error.get_dbus_name()
            finally:
                c.close()

        reset_hwm(daemon.pid)
        before = vm_hwm_kib(daemon.pid)
        outcome = {}
        threads = [threading.Thread(target=transcript, args=("JSON bomb %d" % n, outcome)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        after = vm_hwm_kib(daemon.pid)
        call(client, PODCASTS, "org.freedesktop.DBus.Peer", "Ping")
        alive = daemon.alive()
        record("bombs", "three 8 MiB JSON transcripts {\"segments\":[0,0,…]} asked for at once",
               "almanacd's VmHWM ≤ %d MiB; each refused by name; the daemon answers" % BOUND_MIB,
               alive and after <= BOUND_MIB * 1024 and all(v.startswith("org.almanac.Error.") for v in outcome.values()),
               "VmHWM %.1f MiB before, %.1f MiB after; %s" % (before / 1024, after / 1024, ", ".join(sorted(set(outcome.values())))))

        for title, what, bound in [("WebVTT bomb", "an 8 MiB WebVTT transcript of blank lines", 128)]:
            reset_hwm(daemon.pid)
            before = vm_hwm_kib(daemon.pid)
            outcome = {}
            transcript(title, outcome)
            after = vm_hwm_kib(daemon.pid)
            record("bombs", what, "VmHWM ≤ %d MiB; refused by name" % bound,
                   daemon.alive() and after <= bound * 1024 and outcome[title].startswith("org.almanac.Error."),
                   "VmHWM %.1f MiB before, %.1f MiB after; %s" % (before / 1024, after / 1024, outcome[title]))

        reset_hwm(daemon.pid)
        before = vm_hwm_kib(daemon.pid)
        details = call(client, PODCASTS, PODCASTS1, "GetEpisodeDetails", "s", (ids["Chapters bomb"],), timeout=120)
        after = vm_hwm_kib(daemon.pid)
        note = str(details.get("chaptersNote", ""))
        log("  chapters note: %s" % note[:200])
        record("bombs", "a 4 MiB chapters file {\"chapters\":[0,0,…]}", "VmHWM ≤ 128 MiB; no chapters, a note says why",
               daemon.alive() and after <= 128 * 1024 and note != "",
               "VmHWM %.1f MiB before, %.1f MiB after" % (before / 1024, after / 1024))

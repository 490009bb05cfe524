"""`make stress`, section badinput (scripts/stress.py runs it).

Every method of every interface with wrong signatures, wrong value types, unknown
keys, empty, 1 MiB and odd Unicode strings, and paths that are not views."""
import json
import re
import time

import dbus

from stress_common import ROOT, WEATHER, PODCASTS, DOC, VIEW, PROPS, log, record, connect, call, get, view_count, all_episodes, Section


ODD = ["\u202eevil\u202c", "e\u0301" * 300, "\U0001F600" * 200, "\ufeff", "a\u0000b".replace("\u0000", "\u2028"),
       "\U0010FFFF", "Z\u0307\u0317\u0346" * 100, "x" * 1025]
HUGE = "x" * (1024 * 1024)
PROPER_ERROR = re.compile(r"^(org\.freedesktop\.DBus\.Error\.[A-Za-z]+|org\.almanac\.Error\.[A-Za-z]+)$")
KEYS = {"weather": ["location", "units", "locations"],
        "podcasts": ["podcast", "episode", "played", "position", "notify", "deleteWhenPlayed", "playedAt",
                     "limit", "cursor", "order", "new", "unplayed", "downloaded"]}


def introspect(connection, path):
    import xml.etree.ElementTree as ET
    xml = call(connection, path, "org.freedesktop.DBus.Introspectable", "Introspect")
    node = ET.fromstring(str(xml))
    methods = []
    for interface in node.findall("interface"):
        for method in interface.findall("method"):
            inputs = "".join(a.get("type") for a in method.findall("arg") if a.get("direction", "in") == "in")
            methods.append((interface.get("name"), method.get("name"), inputs))
    return methods


def bad_arguments(signature, document):
    """(label, signature, arguments, must fail) for a method taking `signature`."""
    cases = [("no arguments" if signature else "an extra argument", "" if signature else "u", () if signature else (7,), True)]
    if signature and signature != "u":
        cases.append(("a uint32 instead of %s" % signature, "u", (7,), True))
    if signature and signature != "ss":
        cases.append(("two strings instead of %s" % signature, "ss", ("a", "b"), True))
    parts = re.findall(r"a\{sv\}|a[a-z]|[a-z]", signature)

    def with_part(index, value):
        values = []
        for i, part in enumerate(parts):
            if i == index:
                values.append(value)
            elif part == "s":
                values.append("x")
            elif part == "a{sv}":
                values.append(dbus.Dictionary({}, signature="sv"))
            elif part == "o":
                values.append(dbus.ObjectPath("/"))
            elif part == "ay":
                values.append(dbus.ByteArray(b""))
            elif part.startswith("a"):
                values.append(dbus.Array([], signature=part[1:]))
            elif part == "i":
                values.append(dbus.Int32(1))
            else:
                values.append(dbus.UInt32(1))
        return tuple(values)

    for index, part in enumerate(parts):
        if part == "s":
            cases.append(("a 1 MiB string", signature, with_part(index, HUGE), True))
            cases.append(("an empty string", signature, with_part(index, ""), False))
            for odd in ODD:
                cases.append(("odd Unicode %r" % odd[:12], signature, with_part(index, odd), False))
        elif part == "a{sv}":
            cases.append(("an unknown key", signature, with_part(index, dbus.Dictionary({"bogus": 1}, signature="sv")), True))
            for key in KEYS[document]:
                for label, value in [("an int32", dbus.Int32(5)), ("an array of ints", dbus.Array([1, 2], signature="i")),
                                     ("a 1 MiB string", HUGE), ("a nested variant", dbus.Struct((1,), signature="i", variant_level=2))]:
                    must = not (label == "an int32" and key in ("limit",))
                    cases.append(("%s for %r" % (label, key), signature, with_part(index, dbus.Dictionary({key: value}, signature="sv")), must))
        elif part == "o":
            for path in ["/", ROOT + "/weather/views/999999", ROOT + "/podcasts/views/1", ROOT + "/downloads/1"]:
                cases.append(("the path %s" % path, signature, with_part(index, dbus.ObjectPath(path)), True))
        elif part == "ay":
            cases.append(("1 MiB of 0xff", signature, with_part(index, dbus.ByteArray(b"\xff" * (1024 * 1024))), True))
            cases.append(("no bytes", signature, with_part(index, dbus.ByteArray(b"")), True))
        elif part == "u":
            cases.append(("uint32 max", signature, with_part(index, dbus.UInt32(2 ** 32 - 1)), False))
    return cases


def snapshot(connection):
    weather = call(connection, WEATHER, DOC, "GetState")[1]
    podcasts = call(connection, PODCASTS, DOC, "GetState")[1]
    episodes = sorted((str(e["id"]), bool(e["played"]), float(e["position"])) for e in all_episodes(connection))
    return json.dumps({
        "units": str(weather["units"]), "saved": list(map(str, weather["savedLocations"])),
        "subscriptions": sorted(str(p["feedURL"]) + "|" + str(p["title"]) for p in podcasts["podcasts"]),
        "settings": {str(k): str(v) for k, v in podcasts["settings"].items()},
        "episodes": episodes,
        "views": [view_count(connection), view_count(connection, PODCASTS)],
    }, sort_keys=True)


def run():
    with Section("badinput") as s:
        bus = s.bus()
        daemon = s.daemon(bus)
        client = connect(bus)
        other = connect(bus)
        # Someone else's view, to aim at; and a view of our own, to call View1 on.
        theirs = str(call(other, PODCASTS, DOC, "AddView", "a{sv}", (dbus.Dictionary({}, signature="sv"),)))
        ours = str(call(client, WEATHER, DOC, "AddView", "a{sv}", (dbus.Dictionary({"location": "Oslo"}, signature="sv"),)))
        job = str(call(other, PODCASTS, "org.almanac.Podcasts1", "Download", "s", (all_episodes(client)[0]["id"],)))
        time.sleep(1)
        targets = [(ROOT, "root"), (WEATHER, "weather"), (PODCASTS, "podcasts"), (ours, "weather"), (theirs, "podcasts"), (job, "podcasts")]
        before = snapshot(client)
        calls = errors = 0
        wrong, accepted, slow = [], [], []
        for path, document in targets:
            for interface, method, signature in introspect(client, path):
                if interface in ("org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable"):
                    continue
                for label, sig, args, must_fail in bad_arguments(signature, document):
                    if method in ("Remove", "SetOptions", "Cancel") and path in (ours,) and sig == signature:
                        continue  # our own view's valid calls would change it
                    calls += 1
                    start = time.monotonic()
                    try:
                        call(client, path, interface, method, sig, args, timeout=30)
                        if must_fail:
                            accepted.append("%s %s.%s(%s)" % (path.rsplit("/", 1)[-1], interface.rsplit(".", 1)[-1], method, label))
                    except dbus.DBusException as error:
                        errors += 1
                        name = error.get_dbus_name() or ""
                        if not PROPER_ERROR.match(name) or name.endswith(".NoReply") or not (error.get_dbus_message() or "").strip():
                            wrong.append("%s.%s(%s): %s %s" % (interface, method, label, name, (error.get_dbus_message() or "")[:80]))
                    took = time.monotonic() - start
                    if took > 2:
                        slow.append("%s(%s) %.1f s" % (method, label, took))
                    if not daemon.alive():
                        break
        # Properties with the wrong type, unknown properties, read-only ones.
        for path, interface, name, value in [(WEATHER, "org.almanac.Weather1", "Units", dbus.Int32(1)),
                                             (WEATHER, DOC, "Revision", dbus.UInt64(0)),
                                             (WEATHER, DOC, "Nope", "x"), (ours, VIEW, "Owner", "me"),
                                             (theirs, VIEW, "Options", dbus.Dictionary({"podcast": "x"}, signature="sv"))]:
            calls += 1
            try:
                call(client, path, PROPS, "Set", "ssv", (interface, name, value))
                accepted.append("Set %s.%s" % (interface, name))
            except dbus.DBusException as error:
                errors += 1
                if not PROPER_ERROR.match(error.get_dbus_name() or ""):
                    wrong.append("Set %s: %s" % (name, error.get_dbus_name()))
        # Someone else's view and download: refused as AccessDenied, whatever the arguments.
        denied = []
        for path, interface, method, sig, args in [
                (theirs, VIEW, "Remove", "", ()), (theirs, VIEW, "SetOptions", "a{sv}", (dbus.Dictionary({}, signature="sv"),)),
                (theirs, VIEW, "LoadMore", "", ()), (theirs, VIEW, "RefreshList", "", ()),
                (PODCASTS, DOC, "RemoveView", "o", (dbus.ObjectPath(theirs),)), (job, "org.almanac.Download1", "Cancel", "", ())]:
            calls += 1
            try:
                call(client, path, interface, method, sig, args)
                accepted.append("%s on someone else's %s" % (method, path))
            except dbus.DBusException as error:
                errors += 1
                if error.get_dbus_name() != "org.freedesktop.DBus.Error.AccessDenied":
                    denied.append("%s: %s" % (method, error.get_dbus_name()))
        wrong += denied
        after = snapshot(client)
        alive = daemon.alive() and int(get(client, ROOT, "org.almanac.Almanac1", "Documents") is not None)
        record("badinput", "%d bad calls on every method of %d objects" % (calls, len(targets)),
               "D-Bus error names with a message, nothing changed, daemon alive",
               alive and not wrong and not accepted and before == after,
               "%d errors; %d improper errors; %d wrongly accepted; state unchanged: %s; slowest: %s"
               % (errors, len(wrong), len(accepted), before == after, slow[:3] or "all < 2 s"))
        for line in (wrong + accepted)[:15]:
            log("    " + line)
        if before != after:
            log("    before: " + before[:300])
            log("    after:  " + after[:300])

"""The contract fuzzer: every method of every object the live almanacd introspects, called
with the boundary values of each argument's type (scripts/fuzz_values.py), one argument at
a time while the others name real things (scripts/fuzz_stage.py), and after each call:

- a reply came — a method return, or an error named `org.freedesktop.DBus.Error.*` or
  `org.almanac.Error.*` with a message; no reply within the deadline is a **hang**;
- `Peer.Ping` on the root answers and the process lives; otherwise a **death**;
- after an error, nothing changed: the ObjectManager's whole answer (every document's
  `Revision` — which grows with every change of its state — the subscriptions, settings,
  units and places, every view's options, the download jobs, the sync account, the sleep
  timer) is as it was before the call, less what changes by itself (`Loading`,
  `LastError`, the sync's `LastSync`/`Syncing`/`Queued`, the player's position). A
  difference is checked again once the daemon is quiet (the call made again on a settled
  baseline): only one that comes back is a **change on error**. A call that succeeded is
  allowed its change; the stage is restored and the baseline read again.

Used by scripts/stress_fuzz.py (`make stress` section `fuzz`, and its `--quick` form, which
IntegrationTests' ContractFuzzerTests runs in `make test`)."""
import math
import os
import re
import time

import fuzz_values as values
from fuzz_stage import DOC, PLAYER, PODCASTS, PROPS, ROOT, SYNC, WEATHER, discover

PROPER_ERROR = re.compile(r"^(org\.freedesktop\.DBus\.Error\.[A-Za-z]+|org\.almanac\.Error\.[A-Za-z]+)$")
VOLATILE = {"org.almanac.Document1": {"Loading", "LastError"}, "org.almanac.Almanac1": {"Network"},
            "org.almanac.Sync1": {"LastError", "LastSync", "Syncing", "Queued"}}
API = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "bus-api.md")


# The order objects are called in; others (nodes without an interface of ours) come last.
ORDER = ["root", "weather", "our weather view", "podcasts", "our podcasts view", "their podcasts view", "download job", "sync", "player"]


class Call:
    """One call the fuzzer makes: to the object of `role` (now at `path`), and its label."""

    def __init__(self, role, path, interface, method, label, signature, body):
        self.role, self.path, self.interface, self.method, self.signature, self.body = role, path, interface, method, signature, body
        self.case = "%s %s.%s(%s)" % (role, interface.rsplit(".", 1)[-1], method, label)


class FdKind:
    """A file descriptor to open for the call (`Fds`), or bytes to put in a memory file."""

    def __init__(self, kind, data=None):
        self.kind, self.data = kind, data

    def __repr__(self):
        return "fd(%s)" % self.kind


class Fuzzer:
    def __init__(self, stage, quick=False, alive=lambda: True, restart=None, log=print, timeout=60.0):
        self.stage, self.quick, self.alive, self.restart, self.log, self.timeout = stage, quick, alive, restart, log, timeout
        with open(API) as f:
            api = f.read()
        self.keys, self.groups = values.documented_keys(api), values.documented_groups(api)
        self.report = {"calls": 0, "returns": 0, "errors": 0, "per_object": {}, "per_method": {}, "outcomes": {}, "methods": [],
                       "deaths": [], "hangs": [], "changes": [], "improper": [], "failed": {}, "slowest": [],
                       "rechecked": 0, "seen": []}

    # ---------------------------------------------------------------------------------------------
    # The run

    def run(self):
        began = time.monotonic()
        objects = discover(self.stage.caller)
        roles = self.roles(objects)
        self.check_the_check()
        self.baseline = self.snapshot()
        for path in sorted(objects, key=lambda p: (ORDER.index(roles[p]) if roles[p] in ORDER else len(ORDER), p)):
            role = roles[path]
            for interface, description in sorted(objects[path].items()):
                for method, arguments in sorted(description["methods"].items()):
                    self.report["methods"].append("%s %s.%s" % (role, interface, method))
                    for label, signature, body in self.cases(role, path, objects[path], interface, method, arguments):
                        call = Call(role, self.path_of(role, path), interface, method, label, signature, body)
                        if not self.one(call):
                            return self.finish(began)
        return self.finish(began)

    def check_the_check(self):
        """The snapshot sees a document's change and a view's: else "changed nothing" would hold by blindness."""
        caller, view = self.stage.caller, self.stage.views["our podcasts view"]
        for what, change, undo in [
                ("the units", (WEATHER, DOC, "Submit", "a{sv}", ({"units": ("s", "imperial")},)),
                 (WEATHER, DOC, "Submit", "a{sv}", ({"units": ("s", "metric")},))),
                ("a view's options", (view, "org.almanac.View1", "SetOptions", "a{sv}", ({},)),
                 (view, "org.almanac.View1", "SetOptions", "a{sv}", ({"podcast": ("s", self.stage.podcast)},)))]:
            before = self.snapshot()
            caller.must(*change)
            changed = self.snapshot() != before
            caller.must(*undo)
            if not changed:
                raise RuntimeError("the snapshot did not see a change of %s: the check that an error changed nothing would be blind" % what)

    def finish(self, began):
        self.report["seconds"] = round(time.monotonic() - began, 1)
        self.report["slowest"] = sorted(self.report["slowest"], reverse=True)[:5]
        return self.report

    def roles(self, objects):
        """A name for each object, which stays when a view or job is made anew."""
        named = {ROOT: "root", WEATHER: "weather", PODCASTS: "podcasts", SYNC: "sync", PLAYER: "player",
                 self.stage.job: "download job"}
        named.update({path: role for role, path in self.stage.views.items()})
        return {path: named.get(path, path) for path in objects}

    def path_of(self, role, path):
        """Where the object of `role` is now (a view or job made anew after a call removed it)."""
        if role == "download job":
            return self.stage.job
        return self.stage.views.get(role, path)

    def one(self, call):
        """One call and its checks; False when the daemon died and cannot be started again."""
        reply, took = self.send(call)
        if reply is None:
            return True
        self.tally(call, reply, took)
        ping = self.stage.caller.call(ROOT, "org.freedesktop.DBus.Peer", "Ping", timeout=30)
        if ping.kind != "return" or not self.alive():
            self.report["deaths"].append(call.case)
            self.log("  DEATH after %s (Ping: %s %s)" % (call.case, ping.kind, ping.name))
            if self.restart is None:
                return False
            self.restart()
            self.stage.restore()
        elif reply.kind == "return":
            self.stage.restore()
        elif reply.kind == "error":
            after = self.snapshot()
            if after == self.baseline:
                return True
            seen = sorted(k for k in set(after) | set(self.baseline) if after.get(k) != self.baseline.get(k))
            self.report["seen"].append("%s: %s" % (call.case, ", ".join(seen)[:300]))
            self.confirm(call)
            return True
        self.baseline = self.snapshot()
        return True

    def send(self, call):
        """The call's reply (kind "timeout" after the deadline) and how long it took; None when
        a descriptor to pass could not be opened."""
        fds = values.Fds()
        try:
            given = [self.materialise(value, fds) for value in call.body]
        except OSError as error:
            self.log("  (could not open a descriptor for %s: %s)" % (call.case, error))
            fds.close()
            return None, 0
        start = time.monotonic()
        reply = self.stage.caller.call(call.path, call.interface, call.method, call.signature, given, self.timeout)
        took = time.monotonic() - start
        fds.close()
        return reply, took

    def tally(self, call, reply, took):
        """Counts the call and files a hang or an error without a proper name."""
        report = self.report
        report["calls"] += 1
        report["per_object"][call.role] = report["per_object"].get(call.role, 0) + 1
        member = "%s.%s" % (call.interface.rsplit(".", 1)[-1], call.method)
        report["per_method"][member] = report["per_method"].get(member, 0) + 1
        outcome = reply.name.rsplit(".", 1)[-1] if reply.kind == "error" else reply.kind
        outcomes = report["outcomes"].setdefault(member, {})
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        report["slowest"].append((round(took, 2), call.case))
        if reply.kind == "timeout":
            report["hangs"].append(call.case)
            self.log("  HANG: no reply in %d s to %s" % (self.timeout, call.case))
        elif reply.kind == "error":
            report["errors"] += 1
            if not PROPER_ERROR.match(reply.name) or reply.name.endswith(".NoReply") or not reply.message.strip():
                report["improper"].append("%s: %s %r" % (call.case, reply.name, reply.message[:120]))
            if reply.name == "org.freedesktop.DBus.Error.Failed":
                report["failed"][reply.message[:160]] = report["failed"].get(reply.message[:160], 0) + 1
        else:
            report["returns"] += 1

    def confirm(self, call):
        """A change seen after an error: made again on a quiet baseline, it counts only when it comes back."""
        self.report["rechecked"] += 1
        self.settle()
        before, states = self.snapshot(), self.states()
        reply, _ = self.send(call)
        time.sleep(0.3)
        after = self.snapshot()
        if reply and reply.kind == "error" and after != before:
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            later = self.states()
            documents = sorted("%s.%s" % (d.rsplit("/", 1)[-1], k) for d in states for k in set(states[d]) | set(later[d])
                               if states[d].get(k) != later[d].get(k))
            self.report["changes"].append("%s: %s %r changed %s %s" % (call.case, reply.name, reply.message[:100], changed[:6], documents[:6]))
            self.log("  CHANGE ON ERROR: " + self.report["changes"][-1])
        if reply and reply.kind == "return":
            self.stage.restore()
        self.baseline = self.snapshot()

    def settle(self, seconds=10):
        end = time.monotonic() + seconds
        last = self.snapshot()
        while time.monotonic() < end:
            time.sleep(0.5)
            now = self.snapshot()
            if now == last:
                return
            last = now

    def snapshot(self):
        """What an error must not change: the ObjectManager's answer less what changes by itself."""
        found = {}
        for path, interfaces in self.stage.caller.objects().items():
            for interface, properties in interfaces.items():
                for name, value in properties.items():
                    if name in VOLATILE.get(interface, ()):
                        continue
                    if interface == "org.almanac.Player1":
                        value = (value[0], {k: v for k, v in value[1].items() if k not in ("at", "position", "pausesAt")})
                    found["%s %s.%s" % (path, interface, name)] = canonical(value)
        return found

    def states(self):
        return {path: {k: canonical(v) for k, v in self.stage.caller.must(path, DOC, "GetState")[1].items()}
                for path in (WEATHER, PODCASTS)}

    def materialise(self, value, fds):
        if isinstance(value, FdKind):
            if value.data is None:
                return fds.open(value.kind)
            fd = fds.open("empty memfd")
            os.write(fd, value.data)
            os.lseek(fd, 0, os.SEEK_SET)
            return fd
        if isinstance(value, list):
            return [self.materialise(v, fds) for v in value]
        if isinstance(value, tuple):
            return tuple(self.materialise(v, fds) for v in value)
        return value

    # ---------------------------------------------------------------------------------------------
    # The cases

    def cases(self, role, path, interfaces, interface, method, arguments):
        """(label, signature, body) for one method: its arguments as meant, then each argument
        through its type's boundary values while the others stay as meant."""
        signature = "".join(t for _, t in arguments)
        self.document = "weather" if path.startswith(WEATHER) else "podcasts" if path.startswith(PODCASTS) else None
        if interface == PROPS:
            yield from self.property_cases(interfaces, method)
            return
        yield ("no arguments", "", ()) if arguments else ("an argument too many", "s", ("x",))
        meant = [self.meant(method, name, t) for name, t in arguments]
        yield "as meant", signature, meant
        if self.quick and (role == "their podcasts view" or role.startswith("/")):
            return  # refused whatever the arguments (someone else's), or no interface of ours: the full run has them
        if method == "SetSetting":
            yield from self.setting_cases()
        for index, (name, t) in enumerate(arguments):
            for label, value in self.boundaries(interface, method, name, values.parse(t)[0]):
                yield "%s %s" % (name, label), signature, meant[:index] + [value] + meant[index + 1:]

    def property_cases(self, interfaces, method):
        names = sorted(interfaces)
        strings = [(label, text) for label, text in self.strings()]
        if method == "GetAll":
            for name in names:
                yield name, "s", [name]
            for label, text in strings:
                yield label, "s", [text]
            return
        for name in names:
            for property_name, (t, access) in sorted(interfaces[name]["properties"].items()):
                if method == "Get":
                    yield "%s.%s" % (name, property_name), "ss", [name, property_name]
                else:
                    tried = values.variants(self.quick)[:2] if self.quick else values.variants(False)
                    for label, value in tried + [("same type", (t, self.default(values.parse(t)[0])))]:
                        yield "%s.%s = %s" % (name, property_name, label), "ssv", [name, property_name, value]
            for label, text in strings:
                yield "%s.%s" % (name, label), "ss" + ("v" if method == "Set" else ""), [name, text] + ([("s", "x")] if method == "Set" else [])
        for label, text in strings:
            yield "interface " + label, "ss" + ("v" if method == "Set" else ""), [text, "Revision"] + ([("t", 0)] if method == "Set" else [])

    def setting_cases(self):
        for name, kind in sorted(self.keys.get("SetSetting", {}).items()):
            for label, value in values.key_values(name, kind, self.quick):
                yield "name %s, value %s" % (name, label), "sv", [name, value]

    def meant(self, method, name, t):
        real = self.stage.meaningful().get(name)
        if real:
            value = real[0]
            if t == "h":
                return FdKind("the " + name, value if isinstance(value, bytes) else None)
            if t in ("o", "s") or (t == "as" and isinstance(value, list)) or (t == "ay" and isinstance(value, bytes)) or isinstance(value, int):
                return value
        if t == "a{sv}":
            return dict(self.bases(method)[-1])
        if t == "h":
            return FdKind("empty memfd")
        return self.default(values.parse(t)[0])

    def default(self, t):
        if isinstance(t, str):
            return {"b": False, "d": 1.0, "s": "x", "o": "/", "g": "s", "v": ("s", "x"), "h": FdKind("empty memfd")}.get(t, 1)
        if t[0] == "a":
            return b"" if t[1] == "y" else []
        if t[0] == "{":
            return {}
        return tuple(self.default(f) for f in t[1])

    def bases(self, method, key=None):
        """The `a{sv}`s a documented key is merged into: empty, and for Submit one naming an
        episode and each documented group of keys that holds `key`, the others valid."""
        if method != "Submit" or self.document != "podcasts":
            return [{}]
        found = [{}, {"episode": ("s", self.stage.episodes[0])}]
        for group in self.groups:
            if key in group:
                found.append({other: self.valid(other, kind) for other, kind in group.items() if other != key})
        return found

    def valid(self, key, kind):
        """A value `key` takes in a Submit: an episode, the podcast, true, 1."""
        episode = self.stage.episodes[1]
        if kind == "as":
            return ("as", [episode])
        if kind == "s":
            return ("s", self.stage.podcast if key == "podcast" else episode)
        return {"b": ("b", True), "d": ("d", 1.0)}.get(kind, (kind, 1))

    def strings(self):
        found = [(label, text) for label, text in values.STRINGS if not self.quick or label in values.QUICK_STRINGS]
        return found if self.quick else found + [("1 MiB", "x" * values.MIB)]

    def boundaries(self, interface, method, name, t):
        found = [("real %s %d" % (name, i), v) for i, v in enumerate(self.stage.meaningful().get(name, [])[1:], 1)
                 if matches(t, v)]
        if isinstance(t, str):
            return found + self.basic(t)
        if t[0] == "{":
            return found + self.dictionaries(method, t)
        if t[0] == "(":
            return found + [("field %d %s" % (i, label), tuple(v if j == i else self.default(f) for j, f in enumerate(t[1])))
                            for i, field in enumerate(t[1]) for label, v in self.boundaries(interface, method, name, field)[:4]]
        element = t[1]
        if element == "y":
            found += [("no bytes", b""), ("a NUL", b"\x00"), ("<?xml", b"<?xml")]
            return found if self.quick else found + [("1 MiB of 0xff", b"\xff" * values.MIB)]
        found.append(("empty", []))
        inner = self.boundaries(interface, method, name, element)
        found += [("[%s]" % label, [v]) for label, v in inner[:3 if self.quick else 8]]
        if not self.quick:
            real = self.stage.meaningful().get(name)
            one = real[0][0] if real and isinstance(real[0], list) and real[0] else self.default(element)
            found.append(("10000 entries", [one] * 10000))
        return found

    def basic(self, t):
        if t in values.INTEGERS:
            low, high = values.INTEGERS[t]
            chosen = [low, high, 0, 1] + ([-1] if low < 0 else [high - 1]) + ([low + 1] if low < 0 and not self.quick else [])
            return [("%s %d" % (t, v), v) for v in chosen]
        if t == "d":
            return [("d " + label, v) for label, v in values.DOUBLES if not self.quick or label in values.QUICK_DOUBLES]
        if t == "b":
            return [("true", True), ("false", False)]
        if t == "s":
            return self.strings()
        if t == "o":
            return [(label, p) for label, p in values.PATHS if not self.quick or label in values.QUICK_PATHS]
        if t == "g":
            return [("no signature", ""), ("a{sv}", "a{sv}"), ("32 arrays deep", "a" * 32 + "y"), ("255 long", "y" * 255)]
        if t == "h":
            return [(kind, FdKind(kind)) for kind in (values.Fds.QUICK if self.quick else values.Fds.KINDS)]
        return values.variants(self.quick)

    def dictionaries(self, method, t):
        if values.signature_of(t) != "a{sv}":
            key, value = t[1], t[2]
            return [("empty", {})] + [("key %s" % label, {k: self.default(value)}) for label, k in self.basic(key)[:4]
                                      if not isinstance(k, FdKind)]
        found = [("empty", {}), ("an unknown key", {"fuzzUnknownKey": ("s", "x")})]
        if not self.quick:
            found.append(("10000 unknown keys", {"k%d" % i: ("u", i) for i in range(10000)}))
        keys = self.keys.get("%s %s" % (method, self.document), self.keys.get(method, {})) if self.quick else self.keys.get(method, {})
        for key, kind in sorted(keys.items()):
            bases = self.bases(method, key)
            for base in (bases[-1:] if self.quick else bases):
                for label, value in values.key_values(key, kind, self.quick):
                    given = dict(base)
                    given[key] = value
                    found.append(("{%s%s}" % ("".join(k + ", " for k in sorted(base) if k != key), label), given))
        return found


def matches(t, value):
    if t in ("s", "o"):
        return isinstance(value, str)
    if isinstance(t, str) and t in values.INTEGERS:
        return isinstance(value, int) and not isinstance(value, bool)
    if t == ("a", "s"):
        return isinstance(value, list)
    if t == ("a", "y"):
        return isinstance(value, bytes)
    return False


def canonical(value):
    """A value as something `==` compares (NaN equal to itself, dicts in order)."""
    if isinstance(value, dict):
        return tuple(sorted((canonical(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(canonical(v) for v in value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    return value


def summary(report):
    """The lines the fuzzer prints."""
    lines = ["contract fuzzer: %d calls (%d returns, %d errors) on %d objects, %d methods, in %.0f s"
             % (report["calls"], report["returns"], report["errors"], len(report["per_object"]), len(report["methods"]), report["seconds"]),
             "  per object: " + ", ".join("%s %d" % kv for kv in sorted(report["per_object"].items())),
             "  deaths %d, hangs %d, changes on error %d, improper errors %d (changes seen after an error and checked again: %d)"
             % (len(report["deaths"]), len(report["hangs"]), len(report["changes"]), len(report["improper"]), report["rechecked"]),
             "  slowest: " + "; ".join("%.1f s %s" % (s, c[:100]) for s, c in report["slowest"][:3])]
    for kind in ("deaths", "hangs", "changes", "improper"):
        lines += ["  %s: %s" % (kind, what[:300]) for what in report[kind][:20]]
    lines += ["  Failed (%d×): %s" % (n, m) for m, n in sorted(report["failed"].items(), key=lambda kv: -kv[1])[:10]]
    return lines


def held(report):
    return not (report["deaths"] or report["hangs"] or report["changes"] or report["improper"])


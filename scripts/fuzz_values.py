"""Arguments for the contract fuzzer (scripts/fuzz_contract.py), from D-Bus's type grammar:
the boundary values of every type a signature can name, and the documented keys of each
`a{sv}` (read from docs/bus-api.md) at wrong types and out of range.

Values are in jeepney's shapes: numbers, str, bytes for `ay`, lists, dicts, tuples for
structs, `(signature, value)` for variants, and file descriptors (ints) for `h`, which
`Fds` opens per call. Every value is one dbus-daemon lets through (valid UTF-8 without NUL,
well-formed object paths and signatures): a malformed message would only get the fuzzer
disconnected by the bus, never reach almanacd."""
import math
import os
import re
import socket

BASIC = "ybnqiuxtdhsog"
INTEGERS = {"y": (0, 2 ** 8 - 1), "n": (-2 ** 15, 2 ** 15 - 1), "q": (0, 2 ** 16 - 1), "i": (-2 ** 31, 2 ** 31 - 1),
            "u": (0, 2 ** 32 - 1), "x": (-2 ** 63, 2 ** 63 - 1), "t": (0, 2 ** 64 - 1)}
DOUBLES = [("0.0", 0.0), ("-0", -0.0), ("-1", -1.0), ("NaN", math.nan), ("+inf", math.inf), ("-inf", -math.inf),
           ("1e308", 1e308), ("-1e308", -1e308), ("5e-324", 5e-324), ("0.5", 0.5)]
QUICK_DOUBLES = ["-0", "-1", "NaN", "+inf", "-inf", "1e308"]
MIB = 1024 * 1024
CONTROL = "\x1b]0;owned\x07\x1b[2J\r\n\t\x7f\u0085\u009b\x01"
STRINGS = [("empty", ""), ("a space", " "), ("control characters", CONTROL), ("bidi override", "\u202eevil\u202c"),
           ("1025 bytes", "x" * 1025), ("a path out", "../../../../etc/passwd"), ("file: URL", "file:///etc/passwd"),
           ("closed port", "http://127.0.0.1:1/x"), ("astral", "\U0010ffff" * 64), ("format", "%s%n%x{}\\")]
QUICK_STRINGS = ["empty", "control characters", "1025 bytes", "file: URL"]
PATHS = [("/", "/"), ("no such view", "/org/almanac/Almanac1/podcasts/views/4294967295"),
         ("no such job", "/org/almanac/Almanac1/downloads/18446744073709551615"), ("a document", "/org/almanac/Almanac1/weather"),
         ("long path", "/a" * 8000)]
QUICK_PATHS = ["/", "no such view"]


def parse(signature):
    """The complete types of `signature` as trees: a basic letter or "v", ("a", t),
    ("{", key, value) for a dictionary, ("(", [fields])."""
    types, rest = [], signature
    while rest:
        one, rest = _one(rest)
        types.append(one)
    return types


def _one(s):
    head = s[0]
    if head in BASIC or head == "v":
        return head, s[1:]
    if head == "a":
        if s[1] == "{":
            key, rest = _one(s[2:])
            value, rest = _one(rest)
            return ("{", key, value), rest[1:]
        element, rest = _one(s[1:])
        return ("a", element), rest
    if head == "(":
        fields, rest = [], s[1:]
        while rest[0] != ")":
            field, rest = _one(rest)
            fields.append(field)
        return ("(", fields), rest[1:]
    raise ValueError("not a signature: %r" % s)


def signature_of(t):
    if isinstance(t, str):
        return t
    if t[0] == "a":
        return "a" + signature_of(t[1])
    if t[0] == "{":
        return "a{" + signature_of(t[1]) + signature_of(t[2]) + "}"
    return "(" + "".join(signature_of(f) for f in t[1]) + ")"


class Fds:
    """File descriptors to pass as `h`: what a client might hand almanacd instead of a file.
    Each is opened when asked for and closed by `close()` after the call."""
    KINDS = ["/dev/null", "empty memfd", "garbage memfd", "200 MiB sparse memfd", "pipe never written", "/dev/zero",
             "a directory", "a socket"]
    QUICK = ["empty memfd", "pipe never written", "/dev/zero", "a directory"]

    def __init__(self):
        self.opened = []

    def open(self, kind):
        def keep(*fds):
            self.opened.extend(fds)
            return fds[0]
        if kind == "/dev/null":
            return keep(os.open("/dev/null", os.O_RDONLY))
        if kind == "/dev/zero":
            return keep(os.open("/dev/zero", os.O_RDONLY))
        if kind == "a directory":
            return keep(os.open("/", os.O_RDONLY | os.O_DIRECTORY))
        if kind == "pipe never written":
            read, write = os.pipe()
            return keep(read, write)
        if kind == "a socket":
            one, two = socket.socketpair()
            return keep(one.detach(), two.detach())
        fd = keep(os.memfd_create("fuzz"))
        if kind == "garbage memfd":
            os.write(fd, b"\xff\xfe<rss><<<\x00" * 1000)
        elif kind == "200 MiB sparse memfd":
            os.ftruncate(fd, 200 * MIB)
        return fd

    def close(self):
        for fd in self.opened:
            try:
                os.close(fd)
            except OSError:
                pass
        self.opened = []


def variants(quick):
    """(label, (signature, value)) for a `v`: each type at a boundary, and containers."""
    found = [("v s empty", ("s", "")), ("v s control", ("s", CONTROL)), ("v b", ("b", True)),
             ("v i min", ("i", -2 ** 31)), ("v u max", ("u", 2 ** 32 - 1)), ("v x min", ("x", -2 ** 63)),
             ("v t max", ("t", 2 ** 64 - 1)), ("v d NaN", ("d", math.nan)), ("v d -inf", ("d", -math.inf)),
             ("v d 1e308", ("d", 1e308)), ("v d -0", ("d", -0.0)), ("v as []", ("as", [])), ("v a{sv} {}", ("a{sv}", {})),
             ("v v v s", ("v", ("v", ("s", "x")))), ("v o /", ("o", "/")), ("v ay", ("ay", b"")), ("v (ii)", ("(ii)", (1, 2))),
             ("v y max", ("y", 255)), ("v n min", ("n", -2 ** 15)), ("v q max", ("q", 2 ** 16 - 1)), ("v g", ("g", "a{sv}"))]
    if quick:
        keep = {"v s empty", "v b", "v i min", "v t max", "v d NaN", "v d 1e308", "v as []", "v a{sv} {}", "v v v s"}
        found = [f for f in found if f[0] in keep]
    else:
        found.append(("v s 1 MiB", ("s", "x" * MIB)))
        found.append(("v as 10000", ("as", ["x"] * 10000)))
    return found


def numbers_out_of_range(quick):
    """A number key's values of every numeric type at its boundaries."""
    found = [("i -1", ("i", -1)), ("i min", ("i", -2 ** 31)), ("i max", ("i", 2 ** 31 - 1)), ("u max", ("u", 2 ** 32 - 1)),
             ("t max", ("t", 2 ** 64 - 1)), ("x min", ("x", -2 ** 63)), ("x max", ("x", 2 ** 63 - 1)), ("y max", ("y", 255)),
             ("n min", ("n", -2 ** 15)), ("q max", ("q", 2 ** 16 - 1)), ("u 0", ("u", 0))]
    found += [("d " + label, ("d", value)) for label, value in DOUBLES]
    if quick:
        keep = {"i -1", "i min", "t max", "x min", "d NaN", "d +inf", "d -inf", "d -0", "d 1e308", "u 0"}
        found = [f for f in found if f[0] in keep]
    return found


def wrong_types(documented, quick):
    """Values of types other than `documented` (a signature, or None when the docs do not say);
    `quick`: one."""
    every = [("s", ("s", "x")), ("s empty", ("s", "")), ("b", ("b", True)), ("d", ("d", 1.0)), ("u", ("u", 1)),
             ("as", ("as", ["x"])), ("a{sv}", ("a{sv}", {"x": ("s", "x")})), ("v", ("v", ("s", "x"))), ("ay", ("ay", b"x")),
             ("o", ("o", "/")), ("(s)", ("(s)", ("x",))), ("aa{sv}", ("aa{sv}", [{}]))]
    numeric = set("ybnqiuxtd")
    found = []
    for label, (sig, value) in every:
        if documented and (sig == documented or (sig in numeric and documented in numeric)):
            continue
        found.append(("wrong type " + label, (sig, value)))
    return found[:1] if quick else found


def key_values(key, documented, quick):
    """The values one documented `a{sv}` key is tried with: wrong types, and out of range
    for its own type (`quick`: a few of each)."""
    values = wrong_types(documented, quick)
    if documented is None or documented in "ybnqiuxtd":
        numbers = numbers_out_of_range(quick)
        values += [n for n in numbers if n[0] in ("i min", "t max", "d NaN", "d 1e308")] if quick else numbers
    if documented in (None, "s"):
        for label, text in STRINGS:
            if not quick or label in ("control characters", "1025 bytes"):
                values.append(("s " + label, ("s", text)))
        if not quick:
            values.append(("s 1 MiB", ("s", "x" * MIB)))
    if documented in (None, "as"):
        values += [("as ['']", ("as", [""])), ("as 1025 bytes", ("as", ["x" * 1025]))] + ([] if quick else [("as []", ("as", []))])
        if not quick:
            values.append(("as 10000", ("as", ["x"] * 10000)))
    return [("%s=%s" % (key, label), value) for label, value in values]


def documented_keys(api_text):
    """{method: {key: type or None}} from docs/bus-api.md: the keys a method's row names
    (`limit u`, `{"seconds": <d>}`), and for Submit, SetSetting, AddView and SetOptions the
    tables of what Submit accepts and of view options."""
    keys = {}
    rows = [line for line in api_text.splitlines() if line.startswith("| `")]
    for row in rows:
        method = re.match(r"\| `([A-Z][A-Za-z]*)\(", row)
        if method:
            keys.setdefault(method.group(1), {}).update(_keys_in(row))
    submit = _section(api_text, "### What `Submit` accepts")
    options = _section(api_text, "### View options")
    for method in ("Submit", "SetSetting"):
        keys.setdefault(method, {}).update(_keys_in(submit, bare=False))
    # Per document: "Submit weather", "Submit podcasts" (the table's first column).
    for row in submit.splitlines():
        document = re.match(r"\| (weather|podcasts) \|", row)
        if document:
            keys.setdefault("Submit " + document.group(1), {}).update(_keys_in(row, bare=False))
    for method in ("AddView", "SetOptions"):
        keys.setdefault(method, {}).update(_keys_in(options))
    # A key's type where any row says it (SetPodcastSettings' keys are typed in GetPodcastSettings' row).
    typed = {}
    for found in keys.values():
        for key, kind in found.items():
            if kind:
                typed.setdefault(key, kind)
    return {method: {key: kind or typed.get(key) for key, kind in found.items()} for method, found in keys.items()}


def documented_groups(api_text):
    """The keys `Submit` takes together, from its table's examples (`{"queueMove": <s>,
    "to": <u>}`): {key: type} for each example of two keys or more. A key is tried inside
    each group it belongs to as well as alone, so that it reaches the checks behind the
    first one ("which episode to move?")."""
    groups = []
    for code in re.findall(r"`([^`]+)`", _section(api_text, "### What `Submit` accepts")):
        pairs = re.findall(r'"([a-z][A-Za-z0-9_]*)": *<([a-z{}()]+)>', code)
        if len(pairs) >= 2:
            groups.append(dict(pairs))
    return groups


def _section(text, heading):
    start = text.find(heading)
    if start < 0:
        return ""
    end = text.find("\n#", start + len(heading))
    return text[start:end if end > 0 else len(text)]


def _keys_in(text, bare=True):
    found = {}

    def note(key, kind):
        if len(key) > 1 and found.get(key) is None:
            found[key] = kind
    # A table's row: | weather | `location` | `s` | …
    for key, kind in re.findall(r"`([a-z][A-Za-z0-9]*)` \| `([a-z{}()]+)`", text):
        note(key, kind)
    for code in re.findall(r"`([^`]+)`", text):
        for key, value in re.findall(r'"([a-z][A-Za-z0-9_]*)": *(<[^>]*>|true|false)', code):
            typed = re.match(r"^<([a-z{}()]+)>$", value)
            note(key, "b" if value in ("true", "false") else typed.group(1) if typed else ("s" if value.startswith('<"') else None))
        typed = re.match(r"^([a-z][A-Za-z0-9_]*) ([a-z{}()]+)$", code)
        if typed and typed.group(2) in ("s", "b", "d", "u", "t", "x", "i", "as", "a{sv}", "aa{sv}"):
            note(typed.group(1), typed.group(2))
        elif bare and re.match(r"^[a-z][A-Za-z0-9]*$", code) and code not in ("true", "false", "metric", "imperial"):
            note(code, None)
    return found

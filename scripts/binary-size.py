#!/usr/bin/env python3
"""Where a release binary's bytes come from, per module and library, from lld's link map.

    binary-size.py MAP [MAP...]

Make a map by linking once more with the release flags and `-Xlinker -Map=FILE`
(docs/performance.md, "Where the size comes from"). Sums the sizes of the input sections
that end up in the file (the loaded sections and the ones strip keeps; not .bss, not debug
information, not the symbol tables) by where they came from: each of our modules (its
`.build` folder), each static library of the toolchain (libFoundation.a …), the C runtime
and the linker's own (relocations, hash tables, .eh_frame headers). Prints a Markdown table
per map, largest first.
"""
import collections
import os
import re
import sys

# Our modules are the folders of Sources/; any other `.build` folder is a package's.
SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
OURS = set(os.listdir(SOURCES)) if os.path.isdir(SOURCES) else set()

LINE = re.compile(r"^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\d+) (.*)$")
# What strip removes or what takes no room in the file.
NOT_IN_FILE = (".debug", ".comment", ".symtab", ".strtab", ".shstrtab", ".bss", ".tbss", ".note.gnu.build-id")


def origin(path):
    """A readable name for where an input section came from."""
    match = re.search(r"/([A-Za-z0-9_]+)\.build/", path)
    if match:
        return ("ours: " if match.group(1) in OURS else "package: ") + match.group(1)
    match = re.search(r"/lib([A-Za-z0-9_]+)\.a\(", path)
    if match:
        return "lib" + match.group(1) + ".a"
    if path.startswith("<internal>"):
        return "linker (relocations, hash, .eh_frame_hdr, …)"
    if path.startswith("/opt/swift"):
        return "toolchain: " + path.rsplit("/", 1)[-1].split(":")[0]
    return "C runtime: " + path.rsplit("/", 1)[-1].split("(")[0].split(":")[0]


def measure(map_path):
    sizes = collections.Counter()
    kinds = collections.defaultdict(collections.Counter)
    section = None
    with open(map_path, encoding="utf-8", errors="replace") as map_file:
        next(map_file)
        for line in map_file:
            match = LINE.match(line)
            if not match:
                continue
            size, rest = int(match.group(3), 16), match.group(5)
            if not rest.startswith(" "):
                section = rest.strip()  # an output section
                continue
            if rest.startswith(" " * 16) or section is None:
                continue  # a symbol inside an input section
            if section.startswith(NOT_IN_FILE):
                continue
            name = origin(rest.strip())
            sizes[name] += size
            kind = "text" if section.startswith(".text") else "data" if section.startswith((".rodata", ".data", "swift5", ".lrodata")) else "other"
            kinds[name][kind] += size
    return sizes, kinds


def main():
    for map_path in sys.argv[1:]:
        sizes, kinds = measure(map_path)
        total = sum(sizes.values())
        print(f"\n{map_path}: {total / 1e6:.1f} MB in the file's sections\n")
        print("| from | MB | share | code | data | other |")
        print("|---|---|---|---|---|---|")
        rest = 0
        for name, size in sizes.most_common():
            if size < total / 500:
                rest += size
                continue
            kind = kinds[name]
            print(f"| {name} | {size / 1e6:.2f} | {100 * size / total:.1f} % | {kind['text'] / 1e6:.2f} | {kind['data'] / 1e6:.2f} | {kind['other'] / 1e6:.2f} |")
        print(f"| everything else (each < 0.2 %) | {rest / 1e6:.2f} | {100 * rest / total:.1f} % | | | |")


if __name__ == "__main__":
    main()

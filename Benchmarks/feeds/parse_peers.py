#!/usr/bin/env python3
"""Feed parsing throughput of the Python peers over the same files almanac-bench parses.

  parse_peers.py PARSER DIR [--seconds S] [--every N]
      PARSER: podcastparser | feedparser | feedparser-rs. Reads the *.xml files of DIR
      (every N-th, sorted by name; default all) into memory, then parses them all, again and again until at least S seconds
      (default 2) have passed, at least once. Prints one line:
      "bytes B seconds T rate MBPS episodes E" (E: episodes found in one pass).
"""
import argparse
import io
import os
import sys
import time

def parser_for(name):
    if name == "podcastparser":
        import podcastparser
        return lambda data: len(podcastparser.parse("https://example.com/feed.xml", io.BytesIO(data), max_episodes=0).get("episodes", []))
    if name == "feedparser":
        import feedparser
        return lambda data: len(feedparser.parse(data).entries)
    if name == "feedparser-rs":
        import feedparser_rs
        return lambda data: len(feedparser_rs.parse(data).entries)
    sys.exit(f"unknown parser {name}")

def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("parser")
    arguments.add_argument("folder")
    arguments.add_argument("--seconds", type=float, default=2)
    arguments.add_argument("--every", type=int, default=1, help="parse only every N-th file (sorted by name)")
    options = arguments.parse_args()
    parse = parser_for(options.parser)
    files = []
    names = sorted(name for name in os.listdir(options.folder) if name.endswith(".xml"))
    for name in names[::max(options.every, 1)]:
        with open(os.path.join(options.folder, name), "rb") as source:
            files.append(source.read())
    if not files:
        sys.exit(f"no feeds in {options.folder}")
    size = sum(map(len, files))
    parse(files[0])  # imports and first-use costs stay out of the figure
    passes, episodes = 0, 0
    start = time.perf_counter()
    while True:
        found = sum(parse(data) for data in files)
        if passes == 0:
            episodes = found
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= options.seconds:
            break
    print(f"bytes {size * passes} seconds {elapsed:.4f} rate {size * passes / elapsed / 1e6:.2f} episodes {episodes}")

if __name__ == "__main__":
    main()

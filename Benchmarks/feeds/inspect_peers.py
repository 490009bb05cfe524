#!/usr/bin/env python3
"""The peers of `almanac podcasts inspect FILE --json`, whole process, as a user runs them:

  inspect_peers.py podcastparser-json FILE   gPodder's podcastparser parses FILE, json.dump
                                             writes the result to standard output
  inspect_peers.py feedparser-rs FILE        feedparser-rs parses FILE (every entry: its
                                             default limit stops at 10,000), nothing written

Both read the file whole first, as almanac does. make bench times them with hyperfine."""
import json
import sys


def main():
    peer, path = sys.argv[1:3]
    with open(path, "rb") as source:
        data = source.read()
    if peer == "podcastparser-json":
        import io
        import podcastparser
        feed = podcastparser.parse("file://" + path, io.BytesIO(data), max_episodes=0)
        json.dump(feed, sys.stdout)
        sys.stdout.write("\n")
    elif peer == "feedparser-rs":
        import feedparser_rs
        limits = feedparser_rs.ParserLimits(max_entries=10_000_000, max_feed_size_bytes=1 << 31)
        feed = feedparser_rs.parse_with_limits(data, limits=limits)
        if not feed.entries:
            sys.exit("feedparser-rs found no entries")
    else:
        sys.exit(f"unknown peer {peer}")


if __name__ == "__main__":
    main()

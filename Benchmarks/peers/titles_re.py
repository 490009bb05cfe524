"""`make bench`'s peer for title patterns: Python's `re` (a backtracking engine, as Swift's
Regex and NSRegularExpression are) over the same titles with the same usual pattern as
`almanac-bench titles`. Prints "usual_ns U titles T matched M", nanoseconds per title.

usage: titles_re.py FILE PATTERN [SECONDS]"""
import re
import sys
import time


def main():
    titles = open(sys.argv[1], encoding="utf-8").read().split("\n")
    titles = [t for t in titles if t]
    pattern = re.compile(sys.argv[2], re.IGNORECASE)
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    matched = sum(1 for t in titles if pattern.search(t))
    passes, start = 0, time.perf_counter()
    while True:
        for title in titles:
            pattern.search(title)
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    print("usual_ns %f titles %d matched %d" % (elapsed / (passes * len(titles)) * 1e9, len(titles), matched))


if __name__ == "__main__":
    main()

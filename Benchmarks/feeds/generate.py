#!/usr/bin/env python3
"""Generates podcast feeds for the benchmarks, deterministically (same seed, same bytes).

  generate.py corpus DIR [--megabytes N]
      feeds of many sizes (a handful of episodes to thousands; RSS 2.0 with the iTunes,
      podcast, content and atom namespaces, some Atom 1.0), CDATA and entity-escaped HTML,
      non-ASCII text, every date and duration form seen in the wild, until N MB (default 50)
  generate.py library DIR [--feeds N] [--episodes M]
      N feeds of M episodes each (default 100 x 5,000), compact, for the daemon's memory figure
  generate.py big FILE [--episodes M]
      one feed of M episodes (default 20,000), each with HTML notes but no content:encoded:
      about 22 MB, the feed `almanac podcasts inspect` is timed on (a big real feed's size)
"""
import argparse
import os
import random
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

WORDS = ("the of and a to in is you that it he was for on are as with his they at be this have "
         "from or one had by word but not what all were we when your can said there use an each "
         "which she do how their if will up other about out many then them these so some her "
         "would make like him into time has look two more write go see number no way could people "
         "my than first water been call who oil its now find long down day did get come made may "
         "part café naïve Zürich São Paulo jalapeño résumé Ελληνικά 日本語 emoji 🎙️ podcast episode "
         "interview season bonus trailer guest host science history culture technology music").split()

def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))

def sentence(rng, lo, hi):
    text = words(rng, rng.randint(lo, hi))
    return text[:1].upper() + text[1:] + "."

def html(rng, paragraphs):
    out = []
    for _ in range(paragraphs):
        text = sentence(rng, 12, 60)
        if rng.random() < 0.4:
            text += f' See <a href="https://example.com/{rng.randint(1, 99999)}?a=1&amp;b=2">the notes</a>.'
        if rng.random() < 0.3:
            text = "<strong>" + text + "</strong> &amp; more &#8212; &quot;quoted&quot;"
        out.append("<p>" + text + "</p>")
    return "".join(out)

def rfc822(when):
    return format_datetime(when)

def duration(rng):
    seconds = rng.randint(60, 3 * 3600)
    form = rng.random()
    if form < 0.5:
        return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    if form < 0.8:
        return str(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"

def text_block(rng, value, cdata):
    return f"<![CDATA[{value}]]>" if cdata else escape(value)

def rss_feed(rng, index, episodes, compact=False, encoded=True):
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    host = f"https://feeds.example{index % 17}.com/show{index}"
    cdata = rng.random() < 0.6
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
        'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:podcast="https://podcastindex.org/namespace/1.0">\n',
        "<channel>\n",
        f"<title>{escape(sentence(rng, 2, 6))} #{index}</title>\n",
        f"<link>{host}</link>\n",
        f'<atom:link href="{host}/feed.xml" rel="self" type="application/rss+xml"/>\n',
        f"<description>{text_block(rng, html(rng, 2), cdata)}</description>\n",
        f"<language>{rng.choice(['en-us', 'de', 'fr', 'ja', 'pt-br'])}</language>\n",
        f"<itunes:author>{escape(words(rng, 2).title())}</itunes:author>\n",
        f'<itunes:image href="{host}/cover.jpg"/>\n',
        f'<itunes:category text="Technology"><itunes:category text="Podcasting"/></itunes:category>\n',
        f"<itunes:explicit>{rng.choice(['false', 'no', 'true'])}</itunes:explicit>\n",
        f'<podcast:funding url="{host}/support">Support the show</podcast:funding>\n',
    ]
    for n in range(episodes, 0, -1):
        when = start - timedelta(hours=n * 7 + rng.randint(0, 6))
        title = escape(sentence(rng, 3, 12))
        guid = f"{host}/episodes/{n}" if rng.random() < 0.5 else f"urn:uuid:{rng.getrandbits(64):016x}-{index}-{n}"
        item = [
            "<item>\n",
            f"<title>{title}</title>\n",
            f'<guid isPermaLink="false">{guid}</guid>\n',
            f"<pubDate>{rfc822(when)}</pubDate>\n",
            f'<enclosure url="{host}/audio/{n}.mp3" length="{rng.randint(10**6, 10**8)}" type="audio/mpeg"/>\n',
            f"<itunes:duration>{duration(rng)}</itunes:duration>\n",
        ]
        if compact:
            item.append(f"<description>{escape(sentence(rng, 6, 16))}</description>\n")
        else:
            item.append(f"<link>{host}/episodes/{n}</link>\n")
            item.append(f"<description>{text_block(rng, html(rng, rng.randint(1, 4)), cdata)}</description>\n")
            if encoded and rng.random() < 0.5:
                item.append(f"<content:encoded><![CDATA[{html(rng, rng.randint(3, 12))}]]></content:encoded>\n")
            item.append(f"<itunes:episode>{n}</itunes:episode>\n<itunes:episodeType>full</itunes:episodeType>\n")
            if rng.random() < 0.3:
                item.append(f'<podcast:transcript url="{host}/t/{n}.vtt" type="text/vtt"/>\n')
                item.append(f'<podcast:person role="guest">{escape(words(rng, 2).title())}</podcast:person>\n')
        item.append("</item>\n")
        parts.extend(item)
    parts.append("</channel>\n</rss>\n")
    return "".join(parts)

def atom_feed(rng, index, episodes):
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    host = f"https://atom.example.org/show{index}"
    parts = [
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n',
        f"<title>{escape(sentence(rng, 2, 6))}</title>\n<id>{host}</id>\n",
        f'<link rel="alternate" href="{host}"/>\n<updated>{start.isoformat()}</updated>\n',
        f"<author><name>{escape(words(rng, 2).title())}</name></author>\n",
        f'<subtitle type="html">{escape(html(rng, 1))}</subtitle>\n',
    ]
    for n in range(episodes, 0, -1):
        when = start - timedelta(hours=n * 5)
        parts.append(
            f"<entry>\n<title>{escape(sentence(rng, 3, 10))}</title>\n<id>{host}/e/{n}</id>\n"
            f"<published>{when.isoformat()}</published>\n<updated>{when.isoformat()}</updated>\n"
            f'<link rel="alternate" href="{host}/e/{n}"/>\n'
            f'<link rel="enclosure" href="{host}/e/{n}.ogg" length="{rng.randint(10**6, 10**8)}" type="audio/ogg"/>\n'
            f'<content type="html">{escape(html(rng, rng.randint(1, 6)))}</content>\n</entry>\n')
    parts.append("</feed>\n")
    return "".join(parts)

def corpus(folder, megabytes):
    rng = random.Random(7)
    os.makedirs(folder, exist_ok=True)
    total, index = 0, 0
    while total < megabytes * 1_000_000:
        # many sizes: log-uniform from a handful of episodes to a few thousand
        episodes = int(2 ** rng.uniform(0, 10.5))
        text = atom_feed(rng, index, episodes) if index % 10 == 9 else rss_feed(rng, index, episodes)
        data = text.encode("utf-8")
        with open(os.path.join(folder, f"feed{index:04d}.xml"), "wb") as out:
            out.write(data)
        total += len(data)
        index += 1
    print(f"{index} feeds, {total / 1e6:.1f} MB in {folder}")

def library(folder, feeds, episodes):
    os.makedirs(folder, exist_ok=True)
    total = 0
    for index in range(feeds):
        data = rss_feed(random.Random(1000 + index), index, episodes, compact=True).encode("utf-8")
        with open(os.path.join(folder, f"show{index:03d}.xml"), "wb") as out:
            out.write(data)
        total += len(data)
    print(f"{feeds} feeds x {episodes} episodes, {total / 1e6:.1f} MB in {folder}")

def big(path, episodes):
    data = rss_feed(random.Random(22), 0, episodes, encoded=False).encode("utf-8")
    with open(path, "wb") as out:
        out.write(data)
    print(f"1 feed x {episodes} episodes, {len(data) / 1e6:.1f} MB in {path}")

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["corpus", "library", "big"])
    parser.add_argument("folder")
    parser.add_argument("--megabytes", type=float, default=50)
    parser.add_argument("--feeds", type=int, default=100)
    parser.add_argument("--episodes", type=int, default=None)
    arguments = parser.parse_args()
    if arguments.kind == "big":
        big(arguments.folder, arguments.episodes or 20000)
    elif arguments.kind == "corpus":
        corpus(arguments.folder, arguments.megabytes)
    else:
        library(arguments.folder, arguments.feeds, arguments.episodes or 5000)

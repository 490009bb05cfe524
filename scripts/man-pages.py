#!/usr/bin/env python3
"""Writes man pages for an ArgumentParser program from its own description of itself.

    man-pages.py BINARY OUTDIR [--date YYYY-MM-DD] [--extra FILE]

Runs `BINARY --experimental-dump-help` (ArgumentParser's ToolInfo JSON, what its
`generate-manual` plugin reads too) and writes OUTDIR/NAME.1 for the command and, for a
program with subcommands, OUTDIR/NAME-SUB.1 for every visible subcommand, nested ones
included (almanac-podcasts-subscribe.1). ArgumentParser's plugin is not used because it
builds the whole package once more in its own configuration (docs/packaging.md).
--extra appends a file of roff (FILES, ENVIRONMENT… sections) to the top page, --see-also
adds a page to its SEE ALSO.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys


def roff_text(text):
    """Escapes text for roff: backslashes, and a line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def paragraphs(text):
    """Discussion text as roff paragraphs; indented lines (examples) stay as they are."""
    out = []
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        if any(line.startswith("  ") for line in lines):
            out.append(".PP\n.nf\n" + roff_text(block) + "\n.fi")
        else:
            out.append(".PP\n" + roff_text(" ".join(line.strip() for line in lines)))
    return "\n".join(out)


def option_label(argument):
    """`-d, --days <days>` in roff for an option or flag; `<name>` for a positional."""
    value = argument.get("valueName") or ""
    if argument["kind"] == "positional":
        label = "\\fI<%s>\\fR" % roff_text(value)
        return label + ("..." if argument.get("isRepeating") else "")
    names = []
    for name in argument.get("names") or []:
        dashes = {"long": "--", "short": "-", "longWithSingleDash": "-"}[name["kind"]]
        names.append("\\fB%s\\fR" % roff_text(dashes + name["name"]))
    label = ", ".join(names)
    if argument["kind"] == "option":
        label += " \\fI<%s>\\fR" % roff_text(value)
    return label


def synopsis_part(argument):
    """One argument as the synopsis shows it: optional ones in brackets."""
    if argument["kind"] == "positional":
        part = "<%s>" % argument.get("valueName", "")
    else:
        name = argument.get("preferredName") or (argument.get("names") or [{}])[0]
        dashes = {"long": "--", "short": "-", "longWithSingleDash": "-"}.get(name.get("kind"), "--")
        part = dashes + name.get("name", "")
        if argument["kind"] == "option":
            part += " <%s>" % argument.get("valueName", "")
    if argument.get("isRepeating"):
        part += " ..."
    if argument.get("isOptional"):
        part = "[" + part + "]"
    return roff_text(part)


def visible(items):
    return [item for item in items or [] if item.get("shouldDisplay", True)]


def visible_subcommands(command):
    return [sub for sub in visible(command.get("subcommands")) if sub["commandName"] != "help"]


def page_name(path):
    return "-".join(path)


def write_page(command, path, out_dir, date, source, extra, related):
    name = page_name(path)
    arguments = visible(command.get("arguments"))
    subcommands = visible_subcommands(command)
    lines = [
        '.TH "%s" 1 "%s" "%s" "User Commands"' % (name.upper(), date, source),
        ".SH NAME",
        "%s \\- %s" % (roff_text(name), roff_text(command.get("abstract", "").rstrip("."))),
        ".SH SYNOPSIS",
        ".B %s" % roff_text(" ".join(path)),
    ]
    # Options by name while they are few; beyond that, "[options]" and the OPTIONS section.
    named = [argument for argument in arguments if argument["kind"] != "positional"]
    positional = [argument for argument in arguments if argument["kind"] == "positional"]
    if len(named) > 4:
        synopsis = ["[options]"] + [synopsis_part(argument) for argument in positional]
    else:
        synopsis = [synopsis_part(argument) for argument in arguments]
    if subcommands:
        synopsis.append("<subcommand>")
    if synopsis:
        lines.append(" ".join(synopsis))
    if command.get("abstract") or command.get("discussion"):
        lines.append(".SH DESCRIPTION")
        if command.get("abstract"):
            lines.append(paragraphs(command["abstract"]))
        if command.get("discussion"):
            lines.append(paragraphs(command["discussion"]))
    if arguments:
        lines.append(".SH OPTIONS")
        for argument in arguments:
            lines.append(".TP")
            lines.append(option_label(argument))
            text = argument.get("abstract", "")
            if argument.get("discussion"):
                text += "\n\n" + argument["discussion"]
            if argument.get("defaultValue") and argument["kind"] != "flag":
                text += " (default: %s)" % argument["defaultValue"]
            lines.append(roff_text(text.strip()) or "\\&")
    if subcommands:
        lines.append(".SH SUBCOMMANDS")
        for sub in subcommands:
            lines.append(".TP")
            lines.append("\\fB%s\\fR" % roff_text(sub["commandName"]))
            lines.append(roff_text(sub.get("abstract", "")) or "\\&")
            lines.append("See \\fB%s\\fR(1)." % roff_text(page_name(path + [sub["commandName"]])))
    if extra:
        lines.append(extra.rstrip("\n"))
    see_also = []
    if len(path) > 1:
        see_also.append(page_name(path[:-1]))
    see_also += [page_name(path + [sub["commandName"]]) for sub in subcommands]
    see_also += related
    if see_also:
        lines.append(".SH SEE ALSO")
        lines.append(",\n".join("\\fB%s\\fR(1)" % roff_text(page) for page in see_also))
    with open(os.path.join(out_dir, name + ".1"), "w", encoding="utf-8") as page:
        page.write("\n".join(lines) + "\n")
    written = [name + ".1"]
    for sub in subcommands:
        written += write_page(sub, path + [sub["commandName"]], out_dir, date, source, None, [])
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("out_dir")
    parser.add_argument("--date", default=None, help="the pages' date (default: SOURCE_DATE_EPOCH or today)")
    parser.add_argument("--extra", default=None, help="roff appended to the top page")
    parser.add_argument("--see-also", action="append", default=[], help="a page (section 1) the top page refers to")
    options = parser.parse_args()
    dump = subprocess.run([options.binary, "--experimental-dump-help"], check=True, capture_output=True, text=True)
    command = json.loads(dump.stdout)["command"]
    version = subprocess.run([options.binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    date = options.date
    if date is None:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", datetime.datetime.now(datetime.timezone.utc).timestamp()))
        date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%d")
    extra = open(options.extra, encoding="utf-8").read() if options.extra else None
    os.makedirs(options.out_dir, exist_ok=True)
    name = command["commandName"]
    written = write_page(command, [name], options.out_dir, date, "%s %s" % (name, version), extra, options.see_also)
    print("\n".join(written))


if __name__ == "__main__":
    sys.exit(main())

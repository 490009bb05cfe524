#!/bin/sh
# A media player for tests: linked under the names of real players (mpv, vlc, xdg-open, …),
# it writes the arguments it was started with, one a line and then END, to
# $ALMANAC_TEST_PLAYED/<the name it was started as>.args, and exits.
record="$ALMANAC_TEST_PLAYED/${0##*/}.args"
for argument in "$@"; do printf '%s\n' "$argument"; done > "$record.part"
printf 'END\n' >> "$record.part"
/bin/mv "$record.part" "$record"

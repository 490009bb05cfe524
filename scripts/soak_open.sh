#!/bin/sh
# make soak's `player` setting (`almanac settings set player "soak_open.sh ADDRESS {media}"`):
# `almanac episode play` opens the episode in the soak's media player (scripts/soak_player.py),
# as a user starting playback does. ADDRESS: the soak's session bus.
exec dbus-send --bus="$1" --type=method_call --dest=org.mpris.MediaPlayer2.soak /org/mpris/MediaPlayer2 org.almanac.Soak1.Open string:"$2"

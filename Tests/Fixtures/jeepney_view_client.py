#!/usr/bin/python3
"""A view client written with jeepney's blocking connection, which answers nothing by
itself: it never replies to the daemon's `Peer.Ping` and never calls `View1.Ack`. It only
reads. Flow control must not starve it: the daemon falls back on the bus's own count of
what it holds for the client (`Debug.Stats.GetConnectionStats`).

    jeepney_view_client.py ADDRESS SECONDS STATUS_FILE

Adds one view of the podcasts document, prints "ready", and for SECONDS keeps STATUS_FILE
(JSON: newest revision heard, updates, resyncs, pings left unanswered) current."""
import json
import os
import sys
import time

from jeepney import DBusAddress, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection


def main():
    address, seconds, status = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    connection = open_dbus_connection(bus=address)
    document = DBusAddress("/org/almanac/Almanac1/podcasts", bus_name="org.almanac.Almanac1", interface="org.almanac.Document1")
    view = connection.send_and_get_reply(new_method_call(document, "AddView", "a{sv}", ({},))).body[0]
    print("ready", view, flush=True)
    seen = {"newest": 0, "updates": 0, "resyncs": 0, "pings": 0}
    end = time.time() + seconds
    while time.time() < end:
        try:
            message = connection.receive(timeout=0.1)
        except TimeoutError:
            continue
        header = message.header
        fields = {getattr(key, "name", key): value for key, value in header.fields.items()}
        if header.message_type == MessageType.method_call:
            seen["pings"] += 1  # left unanswered, as this client answers nothing
        elif header.message_type == MessageType.signal and fields.get("member") == "Updated":
            revision, data = message.body
            seen["updates"] += 1
            seen["newest"] = max(seen["newest"], revision)
            if data.get("kind", ("s", ""))[1] == "resync":
                seen["resyncs"] += 1
        with open(status + ".new", "w") as out:
            json.dump(seen, out)
        os.rename(status + ".new", status)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""A client that keeps almanacd busy, written with jeepney (nobody on the team wrote it), for
the tests that other calls are answered meanwhile. It writes its calls in one go, so they
reach the daemon behind each other exactly as written.

    busy_client.py ADDRESS heavy FEED_FILE
        InspectData of FEED_FILE, then Peer.Ping and Properties.Get (Revision) right behind
        it on the same connection; prints the order the answers came in ("Ping Get
        InspectData" when the heavy call did not hold the others up).

    busy_client.py ADDRESS flood COUNT METHOD
        COUNT calls of METHOD (GetAll, GetState) from one connection and, behind them, a
        Submit that changes the weather document's units; once the bus has handed all of
        them to the daemon, a second connection reads the weather document's Revision.
        Prints "before=R during=R' after=R''": during is read while the flood is served.

    busy_client.py ADDRESS refresh GATE_URL FEED...
        RefreshPodcast of each FEED from one connection, as `almanac podcasts refresh` asks;
        once the first answer is in, a GET of GATE_URL (the feed server's /gate/open); prints
        the FEEDs in the order their answers came.
"""
import sys
import urllib.request

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection

ALMANAC = "org.almanac.Almanac1"
ROOT = DBusAddress("/org/almanac/Almanac1", bus_name=ALMANAC, interface="org.freedesktop.DBus.Peer")
PODCASTS = DBusAddress("/org/almanac/Almanac1/podcasts", bus_name=ALMANAC, interface="org.almanac.Podcasts1")
PODCASTS_DOCUMENT = DBusAddress("/org/almanac/Almanac1/podcasts", bus_name=ALMANAC, interface="org.almanac.Document1")
PODCASTS_PROPERTIES = DBusAddress("/org/almanac/Almanac1/podcasts", bus_name=ALMANAC, interface="org.freedesktop.DBus.Properties")
WEATHER = DBusAddress("/org/almanac/Almanac1/weather", bus_name=ALMANAC, interface="org.almanac.Document1")
WEATHER_PROPERTIES = DBusAddress("/org/almanac/Almanac1/weather", bus_name=ALMANAC, interface="org.freedesktop.DBus.Properties")
BUS = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus", interface="org.freedesktop.DBus")


def write_all(connection, named_calls):
    """Sends the calls in one write; returns {serial: name}."""
    serials, data = {}, []
    for name, message in named_calls:
        serial = next(connection.outgoing_serial)
        serials[serial] = name
        data.append(message.serialise(serial=serial))
    connection.sock.sendall(b"".join(data))
    return serials


def answers(connection, serials, order=None, until=None, count=None):
    """Receives the answers to `serials`, in the order they come (appended to `order`), all
    of them, until the one with serial `until`, or until `order` holds `count`; fails on an
    error answer."""
    order = [] if order is None else order
    while len(order) < (count or len(serials)):
        message = connection.receive(timeout=600)
        reply_to = message.header.fields.get(HeaderFields.reply_serial)
        if reply_to not in serials:
            continue
        if message.header.message_type == MessageType.error:
            sys.exit("%s failed: %s" % (serials[reply_to], message.body))
        order.append(serials[reply_to])
        if reply_to == until:
            break
    return order


def revision(connection):
    reply = connection.send_and_get_reply(new_method_call(WEATHER_PROPERTIES, "Get", "ss", ("org.almanac.Document1", "Revision")), timeout=600)
    return reply.body[0][1]


def heavy(address, feed_file):
    with open(feed_file, "rb") as f:
        feed = f.read()
    connection = open_dbus_connection(bus=address)
    serials = write_all(connection, [
        ("InspectData", new_method_call(PODCASTS, "InspectData", "ays", (feed, ""))),
        ("Ping", new_method_call(ROOT, "Ping")),
        ("Get", new_method_call(PODCASTS_PROPERTIES, "Get", "ss", ("org.almanac.Document1", "Revision"))),
    ])
    print(" ".join(answers(connection, serials)), flush=True)


def flood(address, count, method):
    flooder = open_dbus_connection(bus=address)
    other = open_dbus_connection(bus=address)
    before = revision(other)
    if method == "GetState":
        call = lambda: new_method_call(PODCASTS_DOCUMENT, "GetState")
    else:
        call = lambda: new_method_call(PODCASTS_PROPERTIES, "GetAll", "s", ("org.almanac.Podcasts1",))
    calls = [(method, call()) for _ in range(count)]
    calls.append(("Submit", new_method_call(WEATHER, "Submit", "a{sv}", ({"units": ("s", "imperial")},))))
    serials = write_all(flooder, calls)
    # The bus answers this after it has handed every call above to the daemon.
    routed = write_all(flooder, [("GetId", new_method_call(BUS, "GetId"))])
    serials.update(routed)
    order = answers(flooder, serials, until=next(iter(routed)))
    during = revision(other)
    answers(flooder, serials, order)
    after = revision(other)
    print("before=%d during=%d after=%d" % (before, during, after), flush=True)


def refresh(address, gate, feeds):
    connection = open_dbus_connection(bus=address)
    serials = write_all(connection, [(feed, new_method_call(PODCASTS, "RefreshPodcast", "s", (feed,))) for feed in feeds])
    order = answers(connection, serials, count=1)
    urllib.request.urlopen(gate, timeout=60).read()
    answers(connection, serials, order)
    print(" ".join(order), flush=True)


def main():
    address, mode = sys.argv[1], sys.argv[2]
    if mode == "heavy":
        heavy(address, sys.argv[3])
    elif mode == "flood":
        flood(address, int(sys.argv[3]), sys.argv[4])
    elif mode == "refresh":
        refresh(address, sys.argv[3], sys.argv[4:])
    else:
        sys.exit("unknown mode %s" % mode)


if __name__ == "__main__":
    main()

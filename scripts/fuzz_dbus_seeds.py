#!/usr/bin/python3
"""Seeds for the D-Bus fuzz target: real messages in their wire form, captured with
`dbus-monitor --pcap` while almanacd (demo provider) answers a few calls on a private bus.

    scripts/fuzz_dbus_seeds.py OUTPUT_FOLDER [BIN_FOLDER]
"""
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("STRESS_BIN", sys.argv[2] if len(sys.argv) > 2 else ".build/debug")
import dbus  # noqa: E402
import stress  # noqa: E402


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    bus = stress.Bus()
    folder = tempfile.mkdtemp(prefix="almanac-fuzz-seeds-")
    capture = os.path.join(folder, "capture.pcap")
    daemon = None
    with open(capture, "wb") as f:
        monitor = subprocess.Popen(["dbus-monitor", "--address", bus.address, "--pcap"], stdout=f, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        daemon = stress.Daemon(bus, folder)
        client = stress.connect(bus)
        stress.call(client, stress.WEATHER, stress.DOC, "GetState")
        view = stress.call(client, stress.WEATHER, stress.DOC, "AddView", "a{sv}", (dbus.Dictionary({"location": "Oslo"}, signature="sv"),))
        stress.call(client, stress.WEATHER, stress.DOC, "Submit", "a{sv}", (dbus.Dictionary({"units": "imperial"}, signature="sv"),))
        stress.call(client, stress.PODCASTS, stress.DOC, "GetState")
        stress.all_episodes(client)
        stress.call(client, stress.ROOT, "org.freedesktop.DBus.Introspectable", "Introspect")
        stress.call(client, stress.ROOT, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        try:
            stress.call(client, stress.WEATHER, stress.DOC, "RemoveView", "o", ("/nope",))
        except dbus.DBusException:
            pass
        stress.call(client, str(view), stress.VIEW, "Remove")
        time.sleep(1)
    finally:
        monitor.terminate()
        monitor.wait()
        if daemon:
            daemon.stop()
        bus.stop()
    with open(capture, "rb") as f:
        data = f.read()
    offset, count, seen = 24, 0, set()
    while offset + 16 <= len(data):
        length = struct.unpack_from("<I", data, offset + 8)[0]
        message = data[offset + 16: offset + 16 + length]
        offset += 16 + length
        if message in seen or len(message) > 64 * 1024:
            continue
        seen.add(message)
        count += 1
        with open(os.path.join(out, "captured-%03d.bin" % count), "wb") as f:
            f.write(message)
    subprocess.run(["rm", "-rf", folder])
    print("%d messages captured into %s" % (count, out))


if __name__ == "__main__":
    main()

/* bench-stub: the peer of almanacd's start-up, a `true`-like D-Bus service. Started by the
 * bus (D-Bus activation), it connects to the bus that started it, takes the name given on
 * the command line and waits for SIGTERM.
 *
 * usage: bench-stub NAME
 */
#include <dbus/dbus.h>
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t stopping;
static void on_term(int sig) { (void)sig; stopping = 1; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bench-stub NAME\n"); return 64; }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_STARTER, &error);
    if (!bus) { fprintf(stderr, "bench-stub: %s\n", error.message); return 1; }
    if (dbus_bus_request_name(bus, argv[1], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "bench-stub: cannot own %s\n", argv[1]);
        return 1;
    }
    signal(SIGTERM, on_term);
    while (!stopping && dbus_connection_read_write_dispatch(bus, 200)) {}
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}

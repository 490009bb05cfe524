/* bench-driver: the client side of the bus benchmarks, on raw libdbus, pointed at either
 * almanacd or bench-server so that both are driven by the same code.
 *
 *   change ADDRESS DEST VIEWS INFLIGHT SECONDS
 *       VIEWS connections each register a view (AddView({})) of the weather document; one
 *       more connection keeps INFLIGHT Submit({"units": …}) calls in flight for SECONDS
 *       (the first tenth is warm-up) and listens for the broadcast Changed. An event is
 *       done when the Submit's reply, its Changed and an Updated at every view have all
 *       arrived. Each view acknowledges every 32nd Updated (View1.Ack, as almanac does) and
 *       answers Peer.Ping. Prints: events, seconds, events/s, p50 and p99 of Submit -> done (µs).
 *   getstate ADDRESS DEST SECONDS
 *       GetState on the weather document, one call after another, each reply read to
 *       the last value. Prints: calls, seconds, calls/s.
 *   hold-views ADDRESS DEST VIEWS
 *       registers VIEWS views, 50 to a connection; prints "ready" and keeps them (reading
 *       whatever arrives) until standard input closes.
 *   start ADDRESS NAME COUNT
 *       COUNT times: StartServiceByName(NAME) (the bus execs the service; the reply comes
 *       once it owns NAME), then SIGTERM to it and wait for the name to go. Prints each
 *       start in µs, and "stuck PID" for a service still there 10 s after SIGTERM (then
 *       killed with SIGKILL).
 */
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DOC_PATH "/org/almanac/Almanac1/weather"
#define DOC_IFACE "org.almanac.Document1"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what, DBusError *error) {
    fprintf(stderr, "bench-driver: %s: %s\n", what, error && dbus_error_is_set(error) ? error->message : "failed");
    exit(1);
}

static DBusConnection *connect_bus(const char *address) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_connection_open_private(address, &error);
    if (!bus) die("connect", &error);
    if (!dbus_bus_register(bus, &error)) die("register", &error);
    return bus;
}

static DBusMessage *call_block(DBusConnection *bus, DBusMessage *call, const char *what) {
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, call, 25000, &error);
    dbus_message_unref(call);
    if (!reply) die(what, &error);
    return reply;
}

static void add_view(DBusConnection *bus, const char *dest) {
    DBusMessage *call = dbus_message_new_method_call(dest, DOC_PATH, DOC_IFACE, "AddView");
    DBusMessageIter args, dict;
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_close_container(&args, &dict);
    dbus_message_unref(call_block(bus, call, "AddView"));
}

static DBusMessage *submit_call(const char *dest, int k) {
    DBusMessage *call = dbus_message_new_method_call(dest, DOC_PATH, DOC_IFACE, "Submit");
    DBusMessageIter args, dict, entry, variant;
    const char *key = "units", *value = (k & 1) ? "imperial" : "metric";
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(&args, &dict);
    return call;
}

static dbus_uint64_t first_revision(DBusMessage *message) {
    DBusMessageIter args;
    dbus_uint64_t revision = 0;
    if (dbus_message_iter_init(message, &args) && dbus_message_iter_get_arg_type(&args) == DBUS_TYPE_UINT64)
        dbus_message_iter_get_basic(&args, &revision);
    return revision;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *sorted, long n, double p) {
    if (n == 0) return 0;
    long i = (long)(p * (n - 1) + 0.5);
    return sorted[i];
}

/* One event (a revision) in flight or done. */
struct event { double sent, done; int updates; char replied, changed, measured; };

/* Flow control, as almanac's own views do it: every 32 updates a view acknowledges the
 * newest with View1.Ack(t), sent without a reply wanted (docs/bus-api.md). */
static void acknowledge(DBusConnection *bus, DBusMessage *updated, dbus_uint64_t revision, int *unacknowledged) {
    if (++*unacknowledged < 32) return;
    *unacknowledged = 0;
    DBusMessage *ack = dbus_message_new_method_call(dbus_message_get_sender(updated), dbus_message_get_path(updated),
                                                    "org.almanac.View1", "Ack");
    dbus_message_append_args(ack, DBUS_TYPE_UINT64, &revision, DBUS_TYPE_INVALID);
    dbus_message_set_no_reply(ack, TRUE);
    dbus_connection_send(bus, ack, NULL);
    dbus_connection_flush(bus);
    dbus_message_unref(ack);
}

/* Answers org.freedesktop.DBus.Peer.Ping, as libdbus does by itself for a client that
 * dispatches (this one pops messages, so it answers by hand). */
static void answer_ping(DBusConnection *bus, DBusMessage *message) {
    if (!dbus_message_is_method_call(message, "org.freedesktop.DBus.Peer", "Ping")) return;
    DBusMessage *reply = dbus_message_new_method_return(message);
    dbus_connection_send(bus, reply, NULL);
    dbus_connection_flush(bus);
    dbus_message_unref(reply);
}

static int change(const char *address, const char *dest, int view_count, int inflight, double seconds) {
    DBusConnection **buses = calloc(view_count + 1, sizeof *buses);
    struct pollfd *fds = calloc(view_count + 1, sizeof *fds);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *submitter = buses[0] = connect_bus(address);
    dbus_bus_add_match(submitter, "type='signal',interface='" DOC_IFACE "',member='Changed',path='" DOC_PATH "'", &error);
    if (dbus_error_is_set(&error)) die("add match", &error);
    for (int i = 1; i <= view_count; i++) { buses[i] = connect_bus(address); add_view(buses[i], dest); }
    for (int i = 0; i <= view_count; i++) {
        int fd;
        dbus_connection_get_unix_fd(buses[i], &fd);
        fds[i].fd = fd;
        fds[i].events = POLLIN;
    }
    /* A first change, one at a time, names the revision the measured ones count from. */
    DBusMessage *reply = call_block(submitter, submit_call(dest, 0), "Submit");
    dbus_uint64_t base = first_revision(reply);
    dbus_message_unref(reply);
    usleep(200000);
    for (int i = 0; i <= view_count; i++) {  /* drop what the first change brought */
        DBusMessage *message;
        dbus_connection_read_write(buses[i], 0);
        while ((message = dbus_connection_pop_message(buses[i]))) dbus_message_unref(message);
    }

    long capacity = 1 << 20, sent = 0, done = 0, replies = 0;
    struct event *events = calloc(capacity, sizeof *events);
    double *sent_at = calloc(capacity, sizeof *sent_at);     /* by serial offset */
    dbus_uint32_t first_serial = 0;
    int *unacknowledged = calloc(view_count + 1, sizeof *unacknowledged);
    double start = now(), warm = start + seconds / 10, stop = start + seconds, deadline = stop + 30;
    int outstanding = 0;
    while (1) {
        double t = now();
        while (outstanding < inflight && t < stop && sent < capacity - 1) {
            DBusMessage *call = submit_call(dest, (int)sent + 1);
            dbus_uint32_t serial;
            dbus_connection_send(submitter, call, &serial);
            dbus_message_unref(call);
            if (!first_serial) first_serial = serial;
            sent_at[serial - first_serial] = now();
            sent++; outstanding++;
        }
        dbus_connection_flush(submitter);
        if (t >= stop && outstanding == 0 && done == replies) break;
        if (t > deadline) { fprintf(stderr, "bench-driver: events did not arrive (%ld sent, %ld replied, %ld done)\n", sent, replies, done); return 1; }
        if (poll(fds, view_count + 1, 1000) < 0) continue;
        for (int i = 0; i <= view_count; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (!dbus_connection_read_write(buses[i], 0)) { fprintf(stderr, "bench-driver: connection lost\n"); return 1; }
            DBusMessage *message;
            double arrived = now();
            while ((message = dbus_connection_pop_message(buses[i]))) {
                int type = dbus_message_get_type(message);
                if (type == DBUS_MESSAGE_TYPE_METHOD_CALL) answer_ping(buses[i], message);
                dbus_uint64_t revision = 0;
                struct event *event = NULL;
                if (type == DBUS_MESSAGE_TYPE_ERROR) {
                    fprintf(stderr, "bench-driver: Submit failed: %s\n", dbus_message_get_error_name(message));
                    return 1;
                }
                if (type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_SIGNAL) {
                    revision = first_revision(message);
                    if (revision > base && revision - base < (dbus_uint64_t)capacity) event = &events[revision - base];
                }
                if (event) {
                    if (type == DBUS_MESSAGE_TYPE_METHOD_RETURN && i == 0) {
                        event->replied = 1;
                        event->sent = sent_at[dbus_message_get_reply_serial(message) - first_serial];
                        event->measured = event->sent >= warm;
                        outstanding--; replies++;
                    } else if (i == 0 && dbus_message_is_signal(message, DOC_IFACE, "Changed")) {
                        event->changed = 1;
                    } else if (i > 0 && dbus_message_is_signal(message, "org.almanac.View1", "Updated")) {
                        event->updates++;
                        acknowledge(buses[i], message, revision, &unacknowledged[i]);
                    }
                    if (event->replied && event->changed && event->updates == view_count && event->done == 0) {
                        event->done = arrived;
                        done++;
                    }
                }
                dbus_message_unref(message);
            }
        }
    }
    /* Throughput over the measured events: from the first one sent to the last one done. */
    double first = 0, last = 0, *latencies = calloc(capacity, sizeof *latencies);
    long measured = 0;
    for (long r = 1; r <= (long)sent + 1 && r < capacity; r++) {
        struct event *event = &events[r];
        if (!event->done || !event->measured) continue;
        if (!first || event->sent < first) first = event->sent;
        if (event->done > last) last = event->done;
        latencies[measured++] = (event->done - event->sent) * 1e6;
    }
    if (measured < 10) { fprintf(stderr, "bench-driver: only %ld events measured\n", measured); return 1; }
    qsort(latencies, measured, sizeof *latencies, compare_double);
    printf("events %ld seconds %.4f rate %.1f p50_us %.1f p99_us %.1f\n", measured, last - first,
           measured / (last - first), percentile(latencies, measured, 0.50), percentile(latencies, measured, 0.99));
    return 0;
}

/* Reads every value of a message, as a client that uses the reply would. */
static long walk(DBusMessageIter *iter) {
    long values = 0;
    int type;
    while ((type = dbus_message_iter_get_arg_type(iter)) != DBUS_TYPE_INVALID) {
        if (dbus_type_is_container(type)) {
            DBusMessageIter inner;
            dbus_message_iter_recurse(iter, &inner);
            values += walk(&inner);
        } else {
            DBusBasicValue value;
            dbus_message_iter_get_basic(iter, &value);
            values++;
        }
        dbus_message_iter_next(iter);
    }
    return values;
}

static int getstate(const char *address, const char *dest, double seconds) {
    DBusConnection *bus = connect_bus(address);
    long calls = 0, values = 0;
    double start = now(), stop = start + seconds, t;
    while ((t = now()) < stop) {
        DBusMessage *reply = call_block(bus, dbus_message_new_method_call(dest, DOC_PATH, DOC_IFACE, "GetState"), "GetState");
        DBusMessageIter args;
        if (dbus_message_iter_init(reply, &args)) values = walk(&args);
        dbus_message_unref(reply);
        calls++;
    }
    double elapsed = now() - start;
    printf("calls %ld seconds %.4f rate %.1f values %ld\n", calls, elapsed, calls / elapsed, values);
    return 0;
}

static int hold_views(const char *address, const char *dest, int view_count) {
    int connections = (view_count + 49) / 50;
    DBusConnection **buses = calloc(connections, sizeof *buses);
    struct pollfd *fds = calloc(connections + 1, sizeof *fds);
    for (int c = 0; c < connections; c++) {
        buses[c] = connect_bus(address);
        for (int v = c * 50; v < view_count && v < (c + 1) * 50; v++) add_view(buses[c], dest);
        dbus_connection_get_unix_fd(buses[c], &fds[c].fd);
        fds[c].events = POLLIN;
    }
    fds[connections].fd = 0;
    fds[connections].events = POLLIN;
    printf("ready %d views on %d connections\n", view_count, connections);
    fflush(stdout);
    while (poll(fds, connections + 1, -1) >= 0) {
        if (fds[connections].revents) {
            char buffer[64];
            if (read(0, buffer, sizeof buffer) <= 0) break;
        }
        for (int c = 0; c < connections; c++) {
            if (!fds[c].revents) continue;
            DBusMessage *message;
            dbus_connection_read_write(buses[c], 0);
            while ((message = dbus_connection_pop_message(buses[c]))) dbus_message_unref(message);
        }
    }
    return 0;
}

static int start_service(const char *address, const char *name, int count) {
    DBusConnection *bus = connect_bus(address);
    DBusError error;
    dbus_error_init(&error);
    for (int i = 0; i < count; i++) {
        dbus_uint32_t flags = 0, result = 0, pid = 0;
        DBusMessage *call = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName");
        dbus_message_append_args(call, DBUS_TYPE_STRING, &name, DBUS_TYPE_UINT32, &flags, DBUS_TYPE_INVALID);
        double t0 = now();
        DBusMessage *reply = call_block(bus, call, "StartServiceByName");
        double t1 = now();
        if (!dbus_message_get_args(reply, &error, DBUS_TYPE_UINT32, &result, DBUS_TYPE_INVALID)) die("StartServiceByName reply", &error);
        dbus_message_unref(reply);
        if (result != DBUS_START_REPLY_SUCCESS) { fprintf(stderr, "bench-driver: %s was already running\n", name); return 1; }
        printf("%.1f\n", (t1 - t0) * 1e6);
        fflush(stdout);
        call = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID");
        dbus_message_append_args(call, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID);
        reply = call_block(bus, call, "GetConnectionUnixProcessID");
        dbus_message_get_args(reply, &error, DBUS_TYPE_UINT32, &pid, DBUS_TYPE_INVALID);
        dbus_message_unref(reply);
        kill((pid_t)pid, SIGTERM);
        double give_up = now() + 10;
        while (dbus_bus_name_has_owner(bus, name, NULL)) {
            if (now() > give_up) {
                /* A finding, not a reason to lose the run: say so, and stop it for good. */
                printf("stuck %u\n", pid);
                fflush(stdout);
                kill((pid_t)pid, SIGKILL);
                give_up = now() + 10;
                while (dbus_bus_name_has_owner(bus, name, NULL) && now() < give_up) usleep(2000);
                break;
            }
            usleep(2000);
        }
        /* until the process is gone (reaped by the bus), so runs do not overlap */
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/%u", pid);
        while (access(proc, F_OK) == 0 && now() < give_up) usleep(2000);
        usleep(20000);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "change") == 0) return change(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), atof(argv[6]));
    if (argc == 5 && strcmp(argv[1], "getstate") == 0) return getstate(argv[2], argv[3], atof(argv[4]));
    if (argc == 5 && strcmp(argv[1], "hold-views") == 0) return hold_views(argv[2], argv[3], atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "start") == 0) return start_service(argv[2], argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: bench-driver change ADDRESS DEST VIEWS INFLIGHT SECONDS\n"
                    "       bench-driver getstate ADDRESS DEST SECONDS\n"
                    "       bench-driver hold-views ADDRESS DEST VIEWS\n"
                    "       bench-driver start ADDRESS NAME COUNT\n");
    return 64;
}

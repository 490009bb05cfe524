/* bench-server: the C peer of almanacd's document change path, on raw libdbus.
 *
 * Serves what a benchmark driver uses of org.almanac.Document1 at
 * /org/almanac/Almanac1/weather under the name given on the command line:
 *   AddView(a{sv}) -> o        records the caller as the view's owner
 *   Submit(a{sv}) -> t         reads {"units": <s>}, bumps the revision, broadcasts
 *                              Changed(t, a{sv}) and the two PropertiesChanged almanacd
 *                              sends for a units change, sends Updated(t, a{sv}) to every
 *                              view's owner, and replies with the revision
 *   View1.Ack(t)               read and dropped (almanacd's flow control; no reply wanted)
 *   GetState() -> (t, a{sv})   (with STATE-SOURCE) the state STATE-SOURCE's weather document
 *                              gave on the first call, marshalled again value by value into
 *                              every reply, as a server encoding its state would
 * Views of a client that leaves the bus are dropped (NameOwnerChanged), as almanacd does.
 * Message for message, and byte for byte in shape, the traffic almanacd makes for a units
 * change, without the document, the store or any Swift.
 *
 * usage: bench-server BUS-ADDRESS NAME [STATE-SOURCE]
 */
#include <dbus/dbus.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC_PATH "/org/almanac/Almanac1/weather"
#define DOC_IFACE "org.almanac.Document1"
#define VIEW_IFACE "org.almanac.View1"
#define MAX_VIEWS 4096

struct view { char *owner; char path[96]; };
static struct view views[MAX_VIEWS];
static int view_count;
static unsigned long long next_view;
static dbus_uint64_t revision;

static void die(const char *what, DBusError *error) {
    fprintf(stderr, "bench-server: %s: %s\n", what, error && dbus_error_is_set(error) ? error->message : "failed");
    exit(1);
}

static void append_variant_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* (t revision, a{sv} {"kind": "units", "units": units}) — Changed and Updated alike. */
static void append_change(DBusMessage *message, const char *units) {
    DBusMessageIter args, dict;
    dbus_message_iter_init_append(message, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &revision);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_variant_string(&dict, "kind", "units");
    append_variant_string(&dict, "units", units);
    dbus_message_iter_close_container(&args, &dict);
}

static void send_properties_changed(DBusConnection *bus, const char *interface, const char *key, int type, const void *value) {
    DBusMessage *signal = dbus_message_new_signal(DOC_PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    DBusMessageIter args, dict, entry, variant, invalidated;
    char signature[2] = { (char)type, 0 };
    dbus_message_iter_init_append(signal, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signature, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(&args, &dict);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "s", &invalidated);
    dbus_message_iter_close_container(&args, &invalidated);
    dbus_connection_send(bus, signal, NULL);
    dbus_message_unref(signal);
}

static void reply_error(DBusConnection *bus, DBusMessage *call, const char *name, const char *text) {
    DBusMessage *reply = dbus_message_new_error(call, name, text);
    dbus_connection_send(bus, reply, NULL);
    dbus_message_unref(reply);
}

/* Reads {"units": <"metric"|"imperial">}; NULL when the change is not that. */
static const char *read_units(DBusMessage *call) {
    DBusMessageIter args, dict, entry, variant;
    const char *key = NULL, *value = NULL;
    if (!dbus_message_iter_init(call, &args) || strcmp(dbus_message_get_signature(call), "a{sv}") != 0) return NULL;
    dbus_message_iter_recurse(&args, &dict);
    if (dbus_message_iter_get_arg_type(&dict) != DBUS_TYPE_DICT_ENTRY) return NULL;
    dbus_message_iter_recurse(&dict, &entry);
    dbus_message_iter_get_basic(&entry, &key);
    dbus_message_iter_next(&entry);
    dbus_message_iter_recurse(&entry, &variant);
    if (strcmp(key, "units") != 0 || dbus_message_iter_get_arg_type(&variant) != DBUS_TYPE_STRING) return NULL;
    dbus_message_iter_get_basic(&variant, &value);
    if (dbus_message_iter_next(&dict)) return NULL;
    return strcmp(value, "metric") == 0 || strcmp(value, "imperial") == 0 ? value : NULL;
}

static void submit(DBusConnection *bus, DBusMessage *call) {
    const char *units = read_units(call);
    if (!units) { reply_error(bus, call, DBUS_ERROR_INVALID_ARGS, "Submit {\"units\": <\"metric\"|\"imperial\">}."); return; }
    revision++;
    DBusMessage *changed = dbus_message_new_signal(DOC_PATH, DOC_IFACE, "Changed");
    append_change(changed, units);
    dbus_connection_send(bus, changed, NULL);
    dbus_message_unref(changed);
    send_properties_changed(bus, DOC_IFACE, "Revision", DBUS_TYPE_UINT64, &revision);
    send_properties_changed(bus, "org.almanac.Weather1", "Units", DBUS_TYPE_STRING, &units);
    for (int i = 0; i < view_count; i++) {
        DBusMessage *updated = dbus_message_new_signal(views[i].path, VIEW_IFACE, "Updated");
        dbus_message_set_destination(updated, views[i].owner);
        append_change(updated, units);
        dbus_connection_send(bus, updated, NULL);
        dbus_message_unref(updated);
    }
    DBusMessage *reply = dbus_message_new_method_return(call);
    dbus_message_append_args(reply, DBUS_TYPE_UINT64, &revision, DBUS_TYPE_INVALID);
    dbus_connection_send(bus, reply, NULL);
    dbus_message_unref(reply);
}

static void add_view(DBusConnection *bus, DBusMessage *call) {
    if (view_count == MAX_VIEWS) { reply_error(bus, call, "org.almanac.Error.LimitsExceeded", "Too many views."); return; }
    struct view *view = &views[view_count++];
    view->owner = strdup(dbus_message_get_sender(call));
    snprintf(view->path, sizeof view->path, DOC_PATH "/views/%llu", ++next_view);
    const char *path = view->path;
    DBusMessage *reply = dbus_message_new_method_return(call);
    dbus_message_append_args(reply, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
    dbus_connection_send(bus, reply, NULL);
    dbus_message_unref(reply);
}

static void owner_left(DBusMessage *signal) {
    const char *name, *old_owner, *new_owner;
    if (!dbus_message_get_args(signal, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old_owner,
                               DBUS_TYPE_STRING, &new_owner, DBUS_TYPE_INVALID) || new_owner[0] != 0) return;
    for (int i = 0; i < view_count;) {
        if (strcmp(views[i].owner, name) == 0) { free(views[i].owner); views[i] = views[--view_count]; }
        else i++;
    }
}

/* Appends every value `from` reads to `to`, containers and all. */
static void copy_values(DBusMessageIter *from, DBusMessageIter *to) {
    int type;
    while ((type = dbus_message_iter_get_arg_type(from)) != DBUS_TYPE_INVALID) {
        if (dbus_type_is_container(type)) {
            DBusMessageIter inner_from, inner_to;
            char *signature = NULL;
            dbus_message_iter_recurse(from, &inner_from);
            if (type == DBUS_TYPE_VARIANT || type == DBUS_TYPE_ARRAY) signature = dbus_message_iter_get_signature(&inner_from);
            if (type == DBUS_TYPE_ARRAY) {  /* the element type, not the (maybe empty) contents' */
                char *whole = dbus_message_iter_get_signature(from);
                dbus_free(signature);
                signature = strdup(whole + 1);
                dbus_free(whole);
            }
            dbus_message_iter_open_container(to, type, signature, &inner_to);
            copy_values(&inner_from, &inner_to);
            dbus_message_iter_close_container(to, &inner_to);
            if (type == DBUS_TYPE_ARRAY) free(signature); else dbus_free(signature);
        } else {
            DBusBasicValue value;
            dbus_message_iter_get_basic(from, &value);
            dbus_message_iter_append_basic(to, type, &value);
        }
        dbus_message_iter_next(from);
    }
}

static DBusMessage *state;

static void get_state(DBusConnection *bus, DBusMessage *call, const char *source) {
    if (!source) { reply_error(bus, call, DBUS_ERROR_UNKNOWN_METHOD, "bench-server was started without a state source."); return; }
    if (!state) {
        DBusError error;
        dbus_error_init(&error);
        DBusMessage *ask = dbus_message_new_method_call(source, DOC_PATH, DOC_IFACE, "GetState");
        state = dbus_connection_send_with_reply_and_block(bus, ask, 25000, &error);
        dbus_message_unref(ask);
        if (!state) die("GetState from the state source", &error);
    }
    DBusMessage *reply = dbus_message_new_method_return(call);
    DBusMessageIter from, to;
    dbus_message_iter_init_append(reply, &to);
    if (dbus_message_iter_init(state, &from)) copy_values(&from, &to);
    dbus_connection_send(bus, reply, NULL);
    dbus_message_unref(reply);
}

static volatile sig_atomic_t stopping;
static void on_term(int sig) { (void)sig; stopping = 1; }

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) { fprintf(stderr, "usage: bench-server BUS-ADDRESS NAME [STATE-SOURCE]\n"); return 64; }
    const char *source = argc == 4 ? argv[3] : NULL;
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_connection_open_private(argv[1], &error);
    if (!bus) die("connect", &error);
    if (!dbus_bus_register(bus, &error)) die("register", &error);
    dbus_bus_add_match(bus, "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'", &error);
    if (dbus_error_is_set(&error)) die("add match", &error);
    if (dbus_bus_request_name(bus, argv[2], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER)
        die("request name", &error);
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    while (!stopping && dbus_connection_read_write(bus, 200)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            if (dbus_message_is_method_call(message, DOC_IFACE, "Submit")) submit(bus, message);
            else if (dbus_message_is_method_call(message, DOC_IFACE, "AddView")) add_view(bus, message);
            else if (dbus_message_is_method_call(message, DOC_IFACE, "GetState")) get_state(bus, message, source);
            else if (dbus_message_is_signal(message, "org.freedesktop.DBus", "NameOwnerChanged")) owner_left(message);
            /* Flow control (View1.Ack, no reply wanted): read, as almanacd reads it; nothing to keep. */
            else if (dbus_message_is_method_call(message, "org.almanac.View1", "Ack")) {}
            else if (dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL)
                reply_error(bus, message, DBUS_ERROR_UNKNOWN_METHOD, "bench-server serves Submit, AddView and GetState only.");
            dbus_message_unref(message);
        }
    }
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}

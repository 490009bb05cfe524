#ifndef ALMANAC_CDBUS_SHIM_H
#define ALMANAC_CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <stdint.h>
#include <sys/eventfd.h>

// Small helpers for what is awkward to call from Swift: libdbus takes the
// *address* of a basic value, and its type codes are macros.

static inline dbus_bool_t cdbus_append_string(DBusMessageIter *iter, int type, const char *value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}

static inline dbus_bool_t cdbus_append_u64(DBusMessageIter *iter, int type, uint64_t value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}

static inline dbus_bool_t cdbus_append_u32(DBusMessageIter *iter, int type, uint32_t value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}

static inline dbus_bool_t cdbus_append_u16(DBusMessageIter *iter, int type, uint16_t value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}

static inline dbus_bool_t cdbus_append_byte(DBusMessageIter *iter, unsigned char value) {
    return dbus_message_iter_append_basic(iter, DBUS_TYPE_BYTE, &value);
}

static inline dbus_bool_t cdbus_append_double(DBusMessageIter *iter, double value) {
    return dbus_message_iter_append_basic(iter, DBUS_TYPE_DOUBLE, &value);
}

static inline const char *cdbus_get_string(DBusMessageIter *iter) {
    const char *value = 0;
    dbus_message_iter_get_basic(iter, &value);
    return value;
}

static inline DBusBasicValue cdbus_get_basic(DBusMessageIter *iter) {
    DBusBasicValue value;
    value.u64 = 0;
    dbus_message_iter_get_basic(iter, &value);
    return value;
}

// The descriptor the connection thread polls to be woken by other threads.
static inline int cdbus_make_wakeup_fd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

#endif

#ifndef ALMANAC_CDBUS_SHIM_H
#define ALMANAC_CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/memfd.h>

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

// What a connection has queued for the bus: libdbus's outgoing queue and the bytes the
// kernel holds in the socket that the bus has not read yet (SIOCOUTQ); -1 if unknown.
static inline long cdbus_unsent_bytes(DBusConnection *connection) {
    long queued = dbus_connection_get_outgoing_size(connection);
    int fd = -1;
    int inKernel = 0;
    if (dbus_connection_get_socket(connection, &fd) && fd >= 0 && ioctl(fd, TIOCOUTQ, &inKernel) == 0) {
        return queued + inKernel;
    }
    return queued;
}

// A message's length on the wire, header and body (libdbus has no call that says it without
// marshalling a copy); -1 when there is no memory for the copy.
static inline long cdbus_message_size(DBusMessage *message) {
    char *bytes = NULL;
    int length = 0;
    if (!dbus_message_marshal(message, &bytes, &length)) return -1;
    dbus_free(bytes);
    return length;
}

// Sealed memory files for payloads passed by descriptor. Glibc hides memfd_create and
// the sealing commands behind _GNU_SOURCE, which Swift's Glibc module is not built with;
// the numbers are the kernel's ABI (linux/fcntl.h).
static inline int cdbus_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

enum {
    CDBUS_F_ADD_SEALS = 1024 + 9,
    CDBUS_F_GET_SEALS = 1024 + 10,
    CDBUS_F_SEAL_SEAL = 0x0001,
    CDBUS_F_SEAL_SHRINK = 0x0002,
    CDBUS_F_SEAL_GROW = 0x0004,
    CDBUS_F_SEAL_WRITE = 0x0008,
};

// Seals against writing, shrinking, growing and further sealing: the content is fixed.
static inline int cdbus_seal_completely(int fd) {
    return fcntl(fd, CDBUS_F_ADD_SEALS, CDBUS_F_SEAL_SEAL | CDBUS_F_SEAL_SHRINK | CDBUS_F_SEAL_GROW | CDBUS_F_SEAL_WRITE);
}

// The seals on fd, or -1 (errno EINVAL for a file that cannot be sealed).
static inline int cdbus_seals(int fd) {
    return fcntl(fd, CDBUS_F_GET_SEALS);
}

static inline int cdbus_fully_sealed(int seals) {
    int all = CDBUS_F_SEAL_SEAL | CDBUS_F_SEAL_SHRINK | CDBUS_F_SEAL_GROW | CDBUS_F_SEAL_WRITE;
    return seals >= 0 && (seals & all) == all;
}

#endif

#ifndef ALMANAC_CCURL_H
#define ALMANAC_CCURL_H

// libcurl, loaded at the first HTTP request (`dlopen`), not at start: an idle daemon does not
// map libcurl and the ~20 libraries it brings (TLS, Kerberos, LDAP, ...), about 5 MiB of
// resident memory (docs/performance.md, "Memory"). Only curl's header is used at build
// time; every call goes through the table `ccurl_load` fills.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the
// setters and getters below take one type each.

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl.so.4 and initialises it (curl_global_init) once per process. Returns 0, or
/// -1 with a sentence saying what failed in `error` (NUL-terminated, at most `size` bytes).
/// Call it before any other function here; they must not be called when it failed.
int ccurl_load(char *error, size_t size);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *easy);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, const void *value);
CURLcode ccurl_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function);
long ccurl_info_long(CURL *easy, CURLINFO info);
/// A string of the transfer's (CURLINFO_PRIMARY_IP, say), owned by libcurl; NULL when it has none.
const char *ccurl_info_string(CURL *easy, CURLINFO info);

/// Says whether a connection to `address` may be made: 1 yes, 0 no. `address` is the IPv4
/// (AF_INET, 4 bytes) or IPv6 (AF_INET6, 16 bytes) address in network order, NULL for any
/// other family.
typedef int (*ccurl_address_check)(void *context, int family, const unsigned char *address);

/// What `ccurl_setopt_address_check` is given; it must outlive the transfer.
struct ccurl_address_guard {
    ccurl_address_check check;
    void *context;
};

/// Every connection the transfer opens (each address tried, each hop: CURLOPT_OPENSOCKETFUNCTION)
/// is first put to `guard->check`, with the address about to be connected to; a refused
/// one is never opened, so not a byte goes to it. The sockets it opens are close-on-exec.
CURLcode ccurl_setopt_address_check(CURL *easy, struct ccurl_address_guard *guard);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_timeout(CURLM *multi, long *timeout_ms);
/// curl_multi_poll that also returns when `wake_fd` (an eventfd: `ccurl_wake_fd`) is readable.
CURLMcode ccurl_multi_poll_waking(CURLM *multi, int wake_fd, int timeout_ms);
/// A new non-blocking eventfd, or -1 (errno set).
int ccurl_wake_fd(void);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text);
void ccurl_slist_free_all(struct curl_slist *list);

/// The transfer thread blocks SIGPIPE: with CURLOPT_NOSIGNAL libcurl leaves it to the
/// program, and a write to a closed connection then fails with EPIPE instead of ending it.
void ccurl_block_sigpipe(void);

#endif

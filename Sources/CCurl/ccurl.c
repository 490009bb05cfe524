#include "ccurl.h"

#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// The functions Almanac calls, looked up once in libcurl.so.4.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_timeout)(CURLM *, long *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

#define FIND(field, name)                                                                      \
    do {                                                                                       \
        *(void **)(&curl.field) = dlsym(library, name);                                        \
        if (!curl.field) {                                                                     \
            snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (Almanac needs libcurl 7.85 or later)", name); \
            return;                                                                            \
        }                                                                                      \
    } while (0)

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "libcurl could not be loaded (%s); install libcurl4", dlerror());
        return;
    }
    FIND(global_init, "curl_global_init");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_strerror, "curl_easy_strerror");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(multi_init, "curl_multi_init");
    FIND(multi_add_handle, "curl_multi_add_handle");
    FIND(multi_remove_handle, "curl_multi_remove_handle");
    FIND(multi_perform, "curl_multi_perform");
    FIND(multi_poll, "curl_multi_poll");
    FIND(multi_timeout, "curl_multi_timeout");
    FIND(multi_info_read, "curl_multi_info_read");
    FIND(slist_append, "curl_slist_append");
    FIND(slist_free_all, "curl_slist_free_all");
    if (curl.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl did not start (curl_global_init failed)");
    }
}

int ccurl_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!failure[0]) return 0;
    if (error && size) snprintf(error, size, "%s", failure);
    return -1;
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *easy) { curl.easy_cleanup(easy); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return curl.easy_setopt(easy, option, function);
}

long ccurl_info_long(CURL *easy, CURLINFO info) {
    long value = 0;
    curl.easy_getinfo(easy, info, &value);
    return value;
}

const char *ccurl_info_string(CURL *easy, CURLINFO info) {
    const char *value = NULL;
    if (curl.easy_getinfo(easy, info, &value) != CURLE_OK) return NULL;
    return value;
}

static curl_socket_t open_checked(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    struct ccurl_address_guard *guard = context;
    const unsigned char *bytes = NULL;
    // libcurl's address is as long as `addrlen` says (sockaddr_in6 for IPv6), though typed as a sockaddr.
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        bytes = (const unsigned char *)&((const struct sockaddr_in *)(const void *)&address->addr)->sin_addr;
    } else if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        bytes = (const unsigned char *)&((const struct sockaddr_in6 *)(const void *)&address->addr)->sin6_addr;
    }
    if (purpose != CURLSOCKTYPE_IPCXN || !guard->check(guard->context, address->family, bytes)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

CURLcode ccurl_setopt_address_check(CURL *easy, struct ccurl_address_guard *guard) {
    CURLcode code = curl.easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, open_checked);
    if (code != CURLE_OK) return code;
    code = curl.easy_setopt(easy, CURLOPT_OPENSOCKETDATA, (void *)guard);
    if (code != CURLE_OK) return code;
    // A connection kept from another transfer was opened unchecked: this one opens its own.
    return curl.easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
}

CURLM *ccurl_multi_init(void) { return curl.multi_init(); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) { return curl.multi_add_handle(multi, easy); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) { return curl.multi_remove_handle(multi, easy); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode ccurl_multi_timeout(CURLM *multi, long *timeout_ms) { return curl.multi_timeout(multi, timeout_ms); }
CURLMcode ccurl_multi_poll_waking(CURLM *multi, int wake_fd, int timeout_ms) {
    struct curl_waitfd extra = { .fd = wake_fd, .events = CURL_WAIT_POLLIN, .revents = 0 };
    return curl.multi_poll(multi, &extra, 1, timeout_ms, NULL);
}
int ccurl_wake_fd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) { return curl.multi_info_read(multi, left); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text) { return curl.slist_append(list, text); }
void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

void ccurl_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, 0);
}

#ifndef ALMANAC_CCURL_SHIM_H
#define ALMANAC_CCURL_SHIM_H

#include <curl/curl.h>
#include <signal.h>
#include <pthread.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these take
// one type each. CURL_GLOBAL_ALL is a macro Swift does not import.

static inline CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(easy, option, function);
}

static inline long ccurl_info_long(CURL *easy, CURLINFO info) {
    long value = 0;
    curl_easy_getinfo(easy, info, &value);
    return value;
}

static inline CURLcode ccurl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

// The transfer thread blocks SIGPIPE: with CURLOPT_NOSIGNAL libcurl leaves it to the
// program, and a write to a closed connection then fails with EPIPE instead of ending it.
static inline void ccurl_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, 0);
}

#endif

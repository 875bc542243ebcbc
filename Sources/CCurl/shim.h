/* libcurl for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
 * call, so each argument type gets a typed inline wrapper. Nothing here is exported from
 * libpaywire (inline, and the linker script exports paywire_* only). */
#ifndef PAYWIRE_CCURL_SHIM_H
#define PAYWIRE_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*pw_curl_data_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode pw_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode pw_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode pw_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode pw_curl_set_callback(CURL *easy, CURLoption option, pw_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode pw_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode pw_curl_get_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

/* The easy handle and result of a finished transfer (CURLMsg keeps them in a union). */
static inline CURL *pw_curl_message_handle(const CURLMsg *message) { return message->easy_handle; }
static inline int pw_curl_message_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
static inline CURLcode pw_curl_message_result(const CURLMsg *message) { return message->data.result; }

#endif

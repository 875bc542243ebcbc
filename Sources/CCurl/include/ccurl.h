/* libcurl for the built-in HTTP transport, loaded on demand.
 *
 * libpaywire does not link libcurl: its dependency chain (TLS, Kerberos, LDAP, ...) costs every
 * host milliseconds at load time, and most hosts carry HTTP themselves. The first client that asks
 * for `transport.type http` calls pw_curl_load(), which dlopens libcurl.so.4 and binds the few
 * functions below. curl's header is used for its types and constants only; every call goes
 * through these pw_curl_* wrappers (the library is linked with -z defs, so a direct curl_* call
 * fails the build instead of leaving an undefined symbol).
 *
 * Nothing here is exported from libpaywire: the linker script exports paywire_* only.
 */
#ifndef PAYWIRE_CCURL_H
#define PAYWIRE_CCURL_H

#include <curl/curl.h>

/* The library file opened, and the oldest release whose API the transport uses
 * (CURLOPT_PROTOCOLS_STR is 7.85.0; curl_multi_poll and curl_multi_wakeup 7.68.0). */
#define PW_CURL_LIBRARY "libcurl.so.4"
#define PW_CURL_MINIMUM_VERSION 0x075500
#define PW_CURL_MINIMUM_VERSION_TEXT "7.85.0"

/* Loads libcurl and runs curl_global_init, once per process (thread-safe; later calls return
 * the first answer). NULL on success; otherwise a static sentence saying what failed (the
 * library missing, too old, a function missing, global init failing). */
const char *pw_curl_load(void);

/* The calls the transport makes; valid only after pw_curl_load() returned NULL. The two
 * constructors return NULL when libcurl is not loaded, so no handle can exist without it. */
CURLM *pw_curl_multi_init(void);
CURLMcode pw_curl_multi_cleanup(CURLM *multi);
CURLMcode pw_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode pw_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode pw_curl_multi_perform(CURLM *multi, int *running);
CURLMcode pw_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode pw_curl_multi_wakeup(CURLM *multi);
CURLMsg *pw_curl_multi_info_read(CURLM *multi, int *left);

CURL *pw_curl_easy_init(void);
void pw_curl_easy_cleanup(CURL *easy);
const char *pw_curl_easy_strerror(CURLcode code);
struct curl_slist *pw_curl_slist_append(struct curl_slist *list, const char *line);
void pw_curl_slist_free_all(struct curl_slist *list);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
 * wrapper per argument type. */
typedef size_t (*pw_curl_data_callback)(char *data, size_t size, size_t count, void *user);
CURLcode pw_curl_set_long(CURL *easy, CURLoption option, long value);
CURLcode pw_curl_set_string(CURL *easy, CURLoption option, const char *value);
CURLcode pw_curl_set_pointer(CURL *easy, CURLoption option, void *value);
CURLcode pw_curl_set_callback(CURL *easy, CURLoption option, pw_curl_data_callback callback);
CURLcode pw_curl_get_long(CURL *easy, CURLINFO info, long *value);

/* The easy handle and result of a finished transfer (CURLMsg keeps them in a union). */
CURL *pw_curl_message_handle(const CURLMsg *message);
int pw_curl_message_is_done(const CURLMsg *message);
CURLcode pw_curl_message_result(const CURLMsg *message);

#endif

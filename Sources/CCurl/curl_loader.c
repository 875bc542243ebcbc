/* Loads libcurl on demand and forwards the transport's calls to it (see include/ccurl.h). */
#define _GNU_SOURCE
#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The libcurl functions the transport uses, bound by name at load time. */
static struct {
    CURLcode (*global_init)(long flags);
    curl_version_info_data *(*version_info)(CURLversion age);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds, unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *easy);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

/* dlsym into a function pointer without the object-to-function cast ISO C warns about. */
static int bind_symbol(void *library, const char *name, void *slot, size_t size) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL) {
        snprintf(load_error, sizeof load_error, "%s has no %s (libcurl %s or later is needed)", PW_CURL_LIBRARY, name,
                 PW_CURL_MINIMUM_VERSION_TEXT);
        return 0;
    }
    memcpy(slot, &symbol, size);
    return 1;
}

#define BIND(library, field) bind_symbol((library), "curl_" #field, &curl.field, sizeof curl.field)

static void load(void) {
    void *library = dlopen(PW_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s could not be loaded (%s)", PW_CURL_LIBRARY, why ? why : "no reason given");
        return;
    }
    /* Kept open for the life of the process: libcurl's global state must not be unloaded. */
    int ok = BIND(library, global_init) && BIND(library, version_info) && BIND(library, multi_init) &&
             BIND(library, multi_cleanup) && BIND(library, multi_add_handle) && BIND(library, multi_remove_handle) &&
             BIND(library, multi_perform) && BIND(library, multi_poll) && BIND(library, multi_wakeup) &&
             BIND(library, multi_info_read) && BIND(library, easy_init) && BIND(library, easy_cleanup) &&
             BIND(library, easy_setopt) && BIND(library, easy_getinfo) && BIND(library, easy_strerror) &&
             BIND(library, slist_append) && BIND(library, slist_free_all);
    if (!ok) return;
    const curl_version_info_data *info = curl.version_info(CURLVERSION_NOW);
    if (info == NULL || info->version_num < PW_CURL_MINIMUM_VERSION) {
        snprintf(load_error, sizeof load_error, "%s is libcurl %s; %s or later is needed", PW_CURL_LIBRARY,
                 info && info->version ? info->version : "of an unknown version", PW_CURL_MINIMUM_VERSION_TEXT);
        return;
    }
    CURLcode init = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (init != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed (%s)", curl.easy_strerror(init));
        return;
    }
    loaded = 1;
}

const char *pw_curl_load(void) {
    if (pthread_once(&load_once, load) != 0) return "libcurl could not be loaded (pthread_once failed)";
    return loaded ? NULL : load_error;
}

CURLM *pw_curl_multi_init(void) { return loaded ? curl.multi_init() : NULL; }
CURLMcode pw_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode pw_curl_multi_add_handle(CURLM *multi, CURL *easy) { return curl.multi_add_handle(multi, easy); }
CURLMcode pw_curl_multi_remove_handle(CURLM *multi, CURL *easy) { return curl.multi_remove_handle(multi, easy); }
CURLMcode pw_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode pw_curl_multi_poll(CURLM *multi, int timeout_ms) { return curl.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode pw_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *pw_curl_multi_info_read(CURLM *multi, int *left) { return curl.multi_info_read(multi, left); }

CURL *pw_curl_easy_init(void) { return loaded ? curl.easy_init() : NULL; }
void pw_curl_easy_cleanup(CURL *easy) { curl.easy_cleanup(easy); }
const char *pw_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *pw_curl_slist_append(struct curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void pw_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode pw_curl_set_long(CURL *easy, CURLoption option, long value) { return curl.easy_setopt(easy, option, value); }
CURLcode pw_curl_set_string(CURL *easy, CURLoption option, const char *value) { return curl.easy_setopt(easy, option, value); }
CURLcode pw_curl_set_pointer(CURL *easy, CURLoption option, void *value) { return curl.easy_setopt(easy, option, value); }
CURLcode pw_curl_set_callback(CURL *easy, CURLoption option, pw_curl_data_callback callback) {
    return curl.easy_setopt(easy, option, callback);
}
CURLcode pw_curl_get_long(CURL *easy, CURLINFO info, long *value) { return curl.easy_getinfo(easy, info, value); }

CURL *pw_curl_message_handle(const CURLMsg *message) { return message->easy_handle; }
int pw_curl_message_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
CURLcode pw_curl_message_result(const CURLMsg *message) { return message->data.result; }

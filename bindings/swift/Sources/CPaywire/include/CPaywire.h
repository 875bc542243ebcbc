/*
 * CPaywire: the C ABI of libpaywire as Swift sees it, for PaywireKit.
 *
 * paywire.h here is a symbolic link to the repository's include/paywire.h: the one header, never
 * a copy. PaywireKit does not link libpaywire; it opens the library at run time (dlopen) and
 * looks each function up (dlsym). The pointer types it casts them to are taken from the header's
 * own prototypes with __typeof__, so a prototype that changes in paywire.h breaks this build
 * instead of a call at run time. Nothing here references a library symbol.
 */
#ifndef CPAYWIRE_H
#define CPAYWIRE_H

#include "paywire.h"

typedef __typeof__(paywire_abi_version) *cpaywire_abi_version_fn;
typedef __typeof__(paywire_version) *cpaywire_version_fn;
typedef __typeof__(paywire_status_name) *cpaywire_status_name_fn;
typedef __typeof__(paywire_string_free) *cpaywire_string_free_fn;
typedef __typeof__(paywire_client_new) *cpaywire_client_new_fn;
typedef __typeof__(paywire_client_free) *cpaywire_client_free_fn;
typedef __typeof__(paywire_client_call) *cpaywire_client_call_fn;
typedef __typeof__(paywire_client_call_async) *cpaywire_client_call_async_fn;
typedef __typeof__(paywire_client_set_event_handler) *cpaywire_client_set_event_handler_fn;
typedef __typeof__(paywire_client_poll) *cpaywire_client_poll_fn;

/* The header's PAYWIRE_ABI_VERSION, as a value Swift can read (a macro is not always imported). */
uint32_t cpaywire_header_abi_version(void);

#endif /* CPAYWIRE_H */

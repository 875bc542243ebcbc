/*
 * paywire.h - the C ABI of libpaywire, a paywall and purchase core.
 *
 * Every call takes and returns UTF-8 JSON. The semantics live in the JSON (methods, results,
 * events; see schema/paywire.schema.json and README.md); this header stays small and stable:
 * a new feature is a new method name or event, never a new symbol.
 *
 * Conventions that hold for every function below:
 *
 *   Strings in   are borrowed for the duration of the call; the library copies what it keeps.
 *                They must be NUL-terminated UTF-8. Invalid UTF-8 is refused with
 *                PAYWIRE_INVALID_UTF8, never repaired.
 *   Strings out  (every `char **out_json`) are owned by the caller and must be released with
 *                paywire_string_free(), never with free(). When a function takes an out_json,
 *                *out_json is always set to a JSON envelope, on success and on failure:
 *                   {"success": <result>}
 *                   {"error": {"code": "<code>", "message": "<for people>", "details": {...}}}
 *                It is NULL only when the library could not allocate it (PAYWIRE_NOMEM).
 *   Statuses     are pinned negative integers, never renumbered. Treat an unknown negative
 *                value as PAYWIRE_FAILED and read the envelope.
 *   Threads      every function may be called from any thread. A client serializes its own
 *                state: calls on one client run one at a time.
 *   Events       are delivered in order, one at a time, each with a per-client "seq", either
 *                to an event handler on a thread the library owns (never on the caller's stack
 *                inside a paywire_* call), or, with no handler set, through paywire_client_poll().
 *                Nothing a caller waits for or must act on is ever dropped: call_result,
 *                host_request and the events that drive a screen are kept; a newer
 *                did_load_latest_profile takes the place of one still queued when the queue is
 *                full; only "log" events are dropped, each drop reported at once by an
 *                "events_overflowed" event naming the seq range. The queue stays bounded because
 *                new work is refused where it enters (PAYWIRE_BUSY) while the host is behind:
 *                async calls past config "async_call_limit" answers not yet taken, and screen
 *                inputs and host requests once "event_queue_limit" kept events wait.
 *   Never trap   bad input (NULL pointers, invalid JSON, absurd sizes or depths, a freed or
 *                made-up client pointer) yields a status and an envelope, not a crash.
 */
#ifndef PAYWIRE_H
#define PAYWIRE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version; equals paywire_abi_version() and the SONAME major (libpaywire.so.1). */
#define PAYWIRE_ABI_VERSION 1
/* The library version; equals paywire_version(). Its parts, for `#if` tests. The file VERSION
 * of the source tree is the source of these; the build fails when they disagree with it. */
#define PAYWIRE_VERSION "0.2.0"
#define PAYWIRE_VERSION_MAJOR 0
#define PAYWIRE_VERSION_MINOR 2
#define PAYWIRE_VERSION_PATCH 0
/* The wire protocol version: the version in the JSON Schema's $id. */
#define PAYWIRE_WIRE_VERSION 1

/* Status codes (paywire_status_t). Pinned: never renumbered. */
#define PAYWIRE_OK                0  /* success; the envelope holds "success" */
#define PAYWIRE_FAILED           -1  /* the call failed; read error.code in the envelope */
#define PAYWIRE_INVALID_ARGUMENT -2  /* a NULL or malformed argument, or a wrong param (wrong_param) */
#define PAYWIRE_INVALID_UTF8     -3  /* a string argument is not valid UTF-8 */
#define PAYWIRE_INVALID_JSON     -4  /* a JSON argument does not parse, or is too deep or too large */
#define PAYWIRE_UNKNOWN_METHOD   -5  /* no method of that name */
#define PAYWIRE_VERSION_MISMATCH -6  /* data of a format version this library does not read */
#define PAYWIRE_INVALID_HANDLE   -7  /* the client pointer is NULL, freed, or not a client */
#define PAYWIRE_CLOSED           -8  /* the client is being freed */
#define PAYWIRE_TIMEOUT          -9  /* nothing arrived within the time given */
#define PAYWIRE_INTERNAL        -10  /* a bug in the library; please report the envelope */
#define PAYWIRE_NOMEM           -11  /* out of memory; *out_json is NULL */
#define PAYWIRE_BUSY            -12  /* the host has not taken what the client already owes it
                                        (error.code "busy"); nothing was done: take events, retry */

/* An opaque client. The pointer is a token: the library never dereferences it, so a stale one
 * is answered with PAYWIRE_INVALID_HANDLE. */
typedef struct paywire_client paywire_client_t;

/* A status code: one of the PAYWIRE_* values above. */
typedef int32_t paywire_status_t;

/* An event callback. `event_json` is one event, {"event": "<name>", "seq": N, ...}; it is
 * borrowed and valid only until the callback returns. Runs on a library-owned thread, one
 * event at a time, in seq order. It may call paywire_client_call_async(), paywire_client_call()
 * and paywire_string_free(); it must not free the client or replace the handler. */
typedef void (*paywire_event_fn)(const char *event_json, void *user_data);

/* Releases a handler's user_data. Called exactly once per handler, from a library thread or
 * from inside paywire_client_free() / paywire_client_set_event_handler(). */
typedef void (*paywire_free_fn)(void *user_data);

/* The ABI version the library was built with (PAYWIRE_ABI_VERSION). Bindings compare it with
 * the version they were written for at load time. Thread-safe; never fails. */
uint32_t paywire_abi_version(void);

/* The library version, e.g. "0.2.0". Static storage: never freed, valid for the process. */
const char *paywire_version(void);

/* The name of a status, e.g. "INVALID_UTF8" for -3, "UNKNOWN" for a value this version does
 * not know. Static storage: never freed. Thread-safe. */
const char *paywire_status_name(paywire_status_t status);

/* Releases a string the library returned through an out_json. NULL is a no-op. Thread-safe,
 * and may be called from inside an event handler. */
void paywire_string_free(char *s);

/* Creates a client.
 *   config_json  borrowed; the client configuration (README "Client config"), NULL means {}.
 *   out_client   must not be NULL; receives the client on PAYWIRE_OK, NULL otherwise.
 *   out_json     may be NULL (then no envelope is returned); receives {"success": null}, or
 *                {"success": {"warnings": [{code, message, field}, ...]}} when the config
 *                holds what the library ignores, or an error naming the offending field in
 *                details.field.
 * The first event of every client is a did_load_latest_profile snapshot of its profile. A config
 * key one slip away from a known one ("fallbak") fails with wrong_param and details.did_you_mean;
 * any other unknown key is not fatal: it is one of the answer's warnings (code
 * unknown_config_key) and a "log" event. Thread-safe. */
paywire_status_t paywire_client_new(const char *config_json,
                                    paywire_client_t **out_client, char **out_json);

/* Frees a client. NULL, or a pointer already freed, is a no-op. Waits for a call in progress
 * on another thread to finish; queued async calls are dropped; pollers return PAYWIRE_CLOSED.
 * No event callback runs after this returns, and the handler's user_data_free is called once.
 * Must not be called from inside the client's own event handler. */
void paywire_client_free(paywire_client_t *client);

/* Calls a method synchronously.
 *   client       a live client (else PAYWIRE_INVALID_HANDLE).
 *   method       borrowed, must not be NULL: the method name, e.g. "get_paywall".
 *   params_json  borrowed; a JSON object of parameters. NULL means {}.
 *   out_json     must not be NULL (else PAYWIRE_INVALID_ARGUMENT and nothing is written);
 *                receives the envelope, to be released with paywire_string_free().
 * Returns PAYWIRE_OK or the status matching the envelope's error.code. Thread-safe; calls on
 * one client are serialized. A method that has to wait for the host (for example
 * get_paywall_products with store.type host) is refused here with error.code "requires_async"
 * (PAYWIRE_INVALID_ARGUMENT): call it with paywire_client_call_async(), whose call_result
 * arrives once the host answered or the request's deadline passed. A method that waits on the
 * library's own work (get_paywall with transport.type http) blocks the calling thread for at
 * most its budget (load_timeout) and lets other threads' calls run meanwhile; freeing the
 * client wakes it with PAYWIRE_CLOSED. */
paywire_status_t paywire_client_call(paywire_client_t *client, const char *method,
                                     const char *params_json, char **out_json);

/* Queues a method call and returns at once.
 *   out_call_id  must not be NULL; receives an id (> 0) unique within the client.
 * The envelope arrives later as a "call_result" event carrying "call_id", "method", "status",
 * "status_name" and "envelope". A NULL or non-UTF-8 argument or a bad handle is reported by the
 * returned status and no event follows; anything else (unknown method, bad params) arrives in
 * the call_result. Every accepted call gets exactly one call_result, unless the client is freed
 * first (then none comes: a binding fails such calls with PAYWIRE_CLOSED). When the client
 * already owes the host config "async_call_limit" call_results it has not taken (default 1000;
 * an answer is taken when poll returns it or the handler is called with it), the call is refused
 * with PAYWIRE_BUSY: *out_call_id is 0, nothing is queued and no event follows. Async calls on
 * one client run in the order they were queued. Thread-safe. */
paywire_status_t paywire_client_call_async(paywire_client_t *client, const char *method,
                                           const char *params_json, uint64_t *out_call_id);

/* Sets, replaces or (with fn NULL) removes the event handler.
 *   fn              called for each event on a library thread; NULL switches to poll mode.
 *   user_data       passed to fn; owned by the library from now on when user_data_free is set.
 *   user_data_free  may be NULL; called exactly once for this user_data: when the handler is
 *                   replaced or removed (before this function returns, once a callback already
 *                   running with it has returned), or by paywire_client_free().
 * With fn NULL, user_data and user_data_free are ignored. Events already queued go to the new
 * handler, then a did_load_latest_profile snapshot of the current profile, so a handler set
 * late still starts from the access state. Returns PAYWIRE_INVALID_ARGUMENT when called from inside the client's own handler.
 * Thread-safe. */
paywire_status_t paywire_client_set_event_handler(paywire_client_t *client,
                                                  paywire_event_fn fn, void *user_data,
                                                  paywire_free_fn user_data_free);

/* Takes the next event when no handler is set (poll mode: game loops, single-threaded hosts,
 * Python).
 *   timeout_ms  0 returns at once; > 0 waits up to that long; < 0 is PAYWIRE_INVALID_ARGUMENT.
 *   out_json    must not be NULL; receives the event JSON on PAYWIRE_OK, else an envelope.
 * Returns PAYWIRE_TIMEOUT when no event came, PAYWIRE_CLOSED when the client was freed while
 * waiting, PAYWIRE_INVALID_ARGUMENT when a handler is set. Thread-safe. */
paywire_status_t paywire_client_poll(paywire_client_t *client, int32_t timeout_ms,
                                     char **out_json);

#ifdef __cplusplus
}
#endif

#endif /* PAYWIRE_H */

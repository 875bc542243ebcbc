'use strict';
// The Node.js binding of libpaywire, the paywall and purchase core: an N-API addon
// (src/, node-addon-api) under a small JS Client.
//
//   const { Client } = require('paywire');
//   const client = new Client({ fallback: { path: 'bundle.json' } });
//   const paywall = client.getPaywall({ placement_id: 'onboarding' });   // typed: a Paywall
//   const profile = await client.getProfileAsync();
//   const raw = client.call('get_paywall', { placement_id: 'onboarding' });  // untyped
//   client.on('event', (event) => console.log(event.event, event.seq));
//   client.close();
//
// Numbers with a fraction are Decimal (exact text; see json.js); `callRaw` gives the library's
// text itself. The typed methods (getPaywall, getPaywallAsync, ...) are generated from the wire
// schema into methods.js (TypedMethods, this Client's base); a library built from another schema
// is refused at construction.
const { addon, libraryPath, ABI_VERSION } = require('./native');
const { Decimal, parse, stringify } = require('./json');
const methods = require('./generated/methods');

/** The pinned status codes of the C ABI. */
const STATUS = Object.freeze({
  OK: 0, FAILED: -1, INVALID_ARGUMENT: -2, INVALID_UTF8: -3, INVALID_JSON: -4, UNKNOWN_METHOD: -5,
  VERSION_MISMATCH: -6, INVALID_HANDLE: -7, CLOSED: -8, TIMEOUT: -9, INTERNAL: -10, NOMEM: -11,
  BUSY: -12,
});

// The wire error code the library writes with each status. A refused callAsync comes with no
// envelope, so the binding names the code itself, the one an envelope would carry (as the
// Python and JVM bindings do).
const WIRE_CODES = {
  [-1]: 'internal', [-2]: 'wrong_param', [-3]: 'invalid_utf8', [-4]: 'decoding_failed', [-5]: 'unknown_method',
  [-6]: 'wrong_fallback_version', [-7]: 'invalid_handle', [-8]: 'closed', [-9]: 'timeout', [-10]: 'internal',
  [-11]: 'internal', [-12]: 'busy',
};

// Why a status came without an envelope, for the ones a caller can act on.
const REFUSALS = {
  [-12]: 'the client already owes the host async_call_limit call_results it has not taken '
    + '(await the calls already made, then retry)',
};

/** A failed call: `code` is the wire error code, `status` the ABI status name. */
class PaywireError extends Error {
  constructor(status, error) {
    super(`${error.code || 'internal'}: ${error.message || ''}`);
    this.name = 'PaywireError';
    this.status = typeof status === 'number' ? addon.statusName(status) : status;
    this.statusCode = typeof status === 'number' ? status : STATUS[status] ?? STATUS.FAILED;
    this.code = error.code || 'internal';
    this.details = error.details || {};
  }
}

function refused(status, what) {
  const name = addon.statusName(status);
  const reason = REFUSALS[status] ? `: ${REFUSALS[status]}` : '';
  return new PaywireError(status, { code: WIRE_CODES[status] || 'internal', message: `${what} refused: ${name}${reason}` });
}

// What a success says went otherwise than asked, as a Node warning (process.emitWarning, type
// PaywireWarning: printed to stderr unless the app listens for 'warning' or runs with
// --no-warnings): paywire_client_new's warnings (config keys the library ignored), and a paywall
// served from the device because the backend refused the credentials (source, backend_error).
function warnAbout(success) {
  if (success === null || typeof success !== 'object') return;
  for (const warning of Array.isArray(success.warnings) ? success.warnings : []) {
    if (warning && typeof warning.message === 'string') process.emitWarning(warning.message, { type: 'PaywireWarning', code: warning.code });
  }
  const refusal = success.backend_error;
  if (refusal && typeof refusal === 'object' && typeof success.source === 'string') {
    const from = success.source === 'fallback' ? 'fallback bundle' : success.source;
    process.emitWarning(`the backend refused the request (HTTP ${refusal.status}, ${refusal.code ?? 'no code'}): `
      + `this paywall came from the ${from}; check the api_key`, { type: 'PaywireWarning', code: 'backend_refused' });
  }
}

// The success of an envelope, or a PaywireError thrown for its error.
function unwrap(status, text) {
  if (text === null) throw new PaywireError(status, { code: 'internal', message: 'libpaywire returned no envelope' });
  const envelope = parse(text);
  if (envelope.error !== undefined) throw new PaywireError(status, envelope.error);
  warnAbout(envelope.success);
  return envelope.success;
}

function encode(value) {
  return value === undefined || value === null ? null : typeof value === 'string' ? value : stringify(value);
}

/**
 * One Paywire client. Events reach JS in one of two modes: poll mode (the default: call
 * `poll`), or handler mode, entered for good by the first `callAsync` or the first 'event'
 * listener, after which every event is emitted as 'event' on the main thread, in seq order.
 */
function majorMinor(text) {
  const match = typeof text === 'string' ? /^([0-9]{1,9})\.([0-9]{1,9})$/.exec(text) : null;
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** null when a library whose schema is `library` (MAJOR.MINOR; undefined when it says none) can
 * serve a binding generated from `binding`: the same MAJOR, a MINOR at least the binding's. Else
 * the VERSION_MISMATCH error naming both. */
function schemaMismatch(library, binding) {
  const theirs = majorMinor(library);
  const ours = majorMinor(binding);
  if (theirs && ours && theirs[0] === ours[0] && theirs[1] >= ours[1]) return null;
  return new PaywireError('VERSION_MISMATCH', {
    code: 'schema_mismatch',
    message: `libpaywire speaks wire schema ${library}, this binding was generated from ${binding}: it needs `
      + `the same MAJOR and a MINOR at least ${binding} (use the binding of the library's release)`,
    details: { library_schema_version: library ?? null, binding_schema_version: binding },
  });
}

class Client extends methods.TypedMethods {
  constructor(config) {
    super();
    const reply = addon.clientNew(encode(config), false);
    unwrap(reply.status, reply.text);
    this._handle = reply.handle;
    this._sink = null;
    this._pending = new Map();  // call id (string) -> {resolve, reject}
    this.on('newListener', (name) => { if (name === 'event') this._attach(); });
    this._refuseAnotherSchema();
  }

  // The typed layer was generated from one schema version: a library of the same MAJOR and a
  // MINOR at least ours only adds what the tolerant models keep; any other is refused here,
  // naming both (as every binding does).
  _refuseAnotherSchema() {
    const refused = schemaMismatch(this.call('get_sdk_version').schema_version, methods.SCHEMA_VERSION);
    if (refused === null) return;
    this.close();
    throw refused;
  }

  _callTyped(method, params) { return this.call(method, params ?? {}); }

  _callTypedAsync(method, params) { return this.callAsync(method, params ?? {}); }

  /** Calls `method` synchronously; returns its result or throws a PaywireError. */
  call(method, params) {
    const reply = addon.call(this._live(), String(method), encode(params), false);
    return unwrap(reply.status, reply.text);
  }

  /** The raw contract: params as JSON text (or null), the envelope as the library wrote it. */
  callRaw(method, paramsText = null) {
    const reply = addon.call(this._live(), String(method), paramsText, false);
    return { status: reply.status, statusName: addon.statusName(reply.status), text: reply.text };
  }

  /** Queues `method`; the Promise settles with its call_result event (handler mode). */
  callAsync(method, params) {
    try {
      const handle = this._live();
      this._attach();
      const reply = addon.callAsync(handle, String(method), encode(params), false);
      if (reply.status !== STATUS.OK) throw refused(reply.status, 'callAsync');
      return new Promise((resolve, reject) => {
        this._pending.set(String(reply.callId), { resolve, reject });
        this._sink.ref();
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The next event (poll mode), or null when none came within timeoutMs. Blocks meanwhile. */
  poll(timeoutMs = 0) {
    const reply = addon.poll(this._live(), timeoutMs);
    if (reply.status === STATUS.OK) return methods.decodeEvent(parse(reply.text));
    if (reply.status === STATUS.TIMEOUT) return null;
    return unwrap(reply.status, reply.text);
  }

  /** Frees the client. Queued events still arrive; async calls without a result reject. */
  close() {
    if (this._handle === null) return;
    const handle = this._handle;
    this._handle = null;
    addon.clientFree(handle);
    if (this._sink === null) this._rejectPending();
  }

  get closed() { return this._handle === null; }

  _live() {
    if (this._handle === null) throw new PaywireError(STATUS.CLOSED, { code: 'closed', message: 'the client is closed' });
    return this._handle;
  }

  _attach() {
    if (this._sink !== null) return;
    const reply = addon.setEventHandler(this._live(), (text) => this._deliver(text), () => this._rejectPending());
    if (reply.status !== STATUS.OK) throw refused(reply.status, 'setEventHandler');
    this._sink = reply.sink;
    this._sink.unref();  // only outstanding async calls keep the process alive
  }

  _deliver(text) {
    const event = methods.decodeEvent(parse(text));
    if (event.event === 'call_result') this._settle(event);
    this.emit('event', event);
  }

  _settle(event) {
    const key = String(event.call_id);
    const waiter = this._pending.get(key);
    if (waiter === undefined) return;
    this._pending.delete(key);
    if (this._pending.size === 0 && this._sink !== null) this._sink.unref();
    const envelope = event.envelope || {};
    if (envelope.error !== undefined) waiter.reject(new PaywireError(event.status ?? STATUS.FAILED, envelope.error));
    else {
      warnAbout(envelope.success);
      waiter.resolve(envelope.success);
    }
  }

  // Async calls the library dropped at close (their call_result never comes).
  _rejectPending() {
    const waiters = [...this._pending.values()];
    this._pending.clear();
    for (const waiter of waiters) {
      waiter.reject(new PaywireError(STATUS.CLOSED, { code: 'closed', message: 'the client was closed before the call ran' }));
    }
  }
}

/** The loaded library's ABI version (checked against this binding's at load). */
function abiVersion() { return addon.abiVersion(); }

/** The loaded library's version string. */
function version() { return addon.version(); }

module.exports = {
  Client, PaywireError, Decimal, STATUS, ABI_VERSION, libraryPath, abiVersion, version, parse, stringify,
  TypedMethods: methods.TypedMethods, SCHEMA_SHA256: methods.SCHEMA_SHA256, SCHEMA_VERSION: methods.SCHEMA_VERSION, schemaMismatch, SCHEMA_ID: methods.SCHEMA_ID,
};

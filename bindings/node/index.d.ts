// TypeScript declarations of the Paywire Node.js binding. The core API here is hand-written;
// the wire models (lib/generated/models.d.ts) and the typed methods (lib/generated/methods.d.ts,
// the Client's base TypedMethods: `getPaywall(params): Paywall`, `getPaywallAsync(params):
// Promise<Paywall>`) are generated from schema/paywire.schema.json by tools/codegen and
// re-exported here.
import { TypedMethods } from './lib/generated/methods';
import type { Event } from './lib/generated/models';

export * from './lib/generated/models';
export { TypedMethods, SCHEMA_SHA256, SCHEMA_VERSION, SCHEMA_ID } from './lib/generated/methods';

/** An exact decimal number as the library wrote it (a price's amount, any number with a
 * fraction or an exponent). Not an arithmetic type: `String(d)` is exact, `Number(d)` is not. */
export declare class Decimal {
  constructor(value: string | number | bigint);
  readonly text: string;
  toString(): string;
  valueOf(): number;
  toJSON(): number;
  /** Same value whatever the spelling: 9.9 equals 9.90. */
  equals(other: Decimal | string | number): boolean;
}

/** A JSON value as this binding decodes it: fractions are Decimal, integers past 2^53 bigint. */
export type JsonValue = null | boolean | number | bigint | string | Decimal | JsonValue[] | JsonObject;
export interface JsonObject { [key: string]: JsonValue; }

/** Any event, untyped: `{event: "<name>", seq: N, ...payload}`. The typed union of the events
 * this binding's schema names is `Event` (lib/generated/models.d.ts); unknown names and fields are to be ignored. */
export interface PaywireEvent extends JsonObject {
  event: string;
  seq: number;
}

export interface WireError {
  code: string;
  message?: string;
  details?: JsonObject;
}

export type StatusName = 'OK' | 'FAILED' | 'INVALID_ARGUMENT' | 'INVALID_UTF8' | 'INVALID_JSON' | 'UNKNOWN_METHOD'
  | 'VERSION_MISMATCH' | 'INVALID_HANDLE' | 'CLOSED' | 'TIMEOUT' | 'INTERNAL' | 'NOMEM' | 'UNKNOWN';

/** The pinned status codes of the C ABI. */
export declare const STATUS: Readonly<{
  OK: 0; FAILED: -1; INVALID_ARGUMENT: -2; INVALID_UTF8: -3; INVALID_JSON: -4; UNKNOWN_METHOD: -5;
  VERSION_MISMATCH: -6; INVALID_HANDLE: -7; CLOSED: -8; TIMEOUT: -9; INTERNAL: -10; NOMEM: -11;
}>;

/** A failed call. Switch on `code` (the wire error code: not_found, wrong_param, closed, ...). */
export declare class PaywireError extends Error {
  readonly name: 'PaywireError';
  /** The wire error code. */
  readonly code: string;
  /** The ABI status name, e.g. "FAILED". */
  readonly status: StatusName;
  /** The ABI status number, e.g. -1. */
  readonly statusCode: number;
  readonly details: JsonObject;
}

/** What `callRaw` returns: the library's envelope text, untouched. */
export interface RawReply {
  status: number;
  statusName: StatusName;
  /** The envelope JSON as the library wrote it; null only when it could not allocate it. */
  text: string | null;
}

export type Params = { [key: string]: unknown };

/** null when a library whose schema is `library` (MAJOR.MINOR) can serve a binding generated from
 * `binding`: the same MAJOR and a MINOR at least the binding's; else the VERSION_MISMATCH error
 * (code schema_mismatch) naming both. The Client checks this when it is created. */
export declare function schemaMismatch(library: string | null | undefined, binding: string): PaywireError | null;

/** A client: the typed methods of TypedMethods (generated, one sync and one Promise method per
 * wire method) over the untyped core below. */
export declare class Client extends TypedMethods {
  /** Creates a client from its config (README "Client config"); throws PaywireError, with code
   * schema_mismatch (status VERSION_MISMATCH) when the library's schema has another MAJOR or an
   * older MINOR than the binding's (SCHEMA_VERSION). */
  constructor(config?: Params | string | null);
  /** Calls a method synchronously: its result, or a thrown PaywireError. */
  call<T = JsonValue>(method: string, params?: Params | string | null): T;
  /** The raw contract: params as JSON text, the envelope text back; never throws for a wire error. */
  callRaw(method: string, paramsText?: string | null): RawReply;
  /** Queues a method; settles with its call_result. Switches the client to handler mode. */
  callAsync<T = JsonValue>(method: string, params?: Params | string | null): Promise<T>;
  /** The next event in poll mode, or null when none came within timeoutMs (blocks meanwhile). */
  poll(timeoutMs?: number): Event | null;
  /** Frees the client; idempotent. Queued events are still emitted, pending calls reject. */
  close(): void;
  readonly closed: boolean;

  /** Every event, in seq order, on the main thread. The first listener switches to handler mode. */
  on(name: 'event', listener: (event: Event) => void): this;
  once(name: 'event', listener: (event: Event) => void): this;
  off(name: 'event', listener: (event: Event) => void): this;
  on(name: string | symbol, listener: (...args: any[]) => void): this;
  once(name: string | symbol, listener: (...args: any[]) => void): this;
  off(name: string | symbol, listener: (...args: any[]) => void): this;
}

/** The ABI version this binding was written for. */
export declare const ABI_VERSION: 1;
/** Where libpaywire was loaded from. */
export declare const libraryPath: string;
/** The loaded library's ABI version. */
export declare function abiVersion(): number;
/** The loaded library's version, e.g. "0.2.0". */
export declare function version(): string;
/** JSON.parse with exact numbers (Decimal, bigint). */
export declare function parse(text: string): JsonValue;
/** JSON.stringify without spacing that writes Decimal and bigint exactly. */
export declare function stringify(value: unknown): string;

#!/usr/bin/env node
'use strict';
// The Node.js runner of the Paywire conformance kit (tests/conformance/README.md).
//
// Reads the primitive ops as JSON lines on stdin and answers each with one JSON line, op for op
// as bindings/python/conformance_runner.py does. It drives the addon's raw layer (lib/native),
// which is the C ABI one function each, so it can pass NULL pointers, raw bytes and made-up
// handles; events set with `set_event_handler` come through the same ThreadSafeFunction path
// the Client uses. Lines are read and written with this binding's exact JSON (lib/json), so a
// number reaches the driver as the library wrote it.
const readline = require('readline');
const path = require('path');
const { Worker } = require('worker_threads');
const { addon } = require('./lib/native');
const { parse, stringify } = require('./lib/json');
const methods = require('./lib/generated/methods');

const clients = new Map();   // name -> handle (bigint)
const inboxes = new Map();   // name -> {events, sinks, wake}
const freed = new Set();
const madeUpHeap = addon.madeUpHeap();

function resolve(ref) {
  if (ref === undefined || ref === null || ref === 'null') return null;
  if (ref === 'made_up') return 0x1234n;
  if (ref === 'made_up_heap') return madeUpHeap;
  if (ref.startsWith('freed:')) return clients.get(ref.slice(6)) ?? null;
  return clients.get(ref) ?? null;
}

// A string argument as bytes: <key>_text verbatim, <key>_hex raw bytes, <key>_repeat, or <key>
// (a string as is, anything else as JSON); null means a NULL pointer.
function argument(op, key) {
  if (typeof op[`${key}_text`] === 'string') return Buffer.from(op[`${key}_text`], 'utf8');
  if (typeof op[`${key}_hex`] === 'string') return Buffer.from(op[`${key}_hex`], 'hex');
  const repeat = op[`${key}_repeat`];
  if (repeat !== null && typeof repeat === 'object') {
    return Buffer.from((repeat.prefix ?? '') + repeat.text.repeat(Number(repeat.times)) + (repeat.suffix ?? ''), 'utf8');
  }
  const value = op[key];
  if (value === undefined || value === null) return null;
  return Buffer.from(typeof value === 'string' ? value : stringify(value), 'utf8');
}

function result(reply, status, text, key = 'envelope', method = null) {
  reply.status = status;
  reply.status_name = addon.statusName(status);
  if (text === null) {
    reply[key] = null;
    return reply;
  }
  reply.raw = text;
  try {
    reply[key] = parse(text);
  } catch (error) {
    reply.unparseable = text;
    return reply;
  }
  // The round trip of issue 21 item 6 on everything the library writes in every case: decoded
  // and encoded again, the text is the library's, numbers and all.
  if (stringify(reply[key]) !== text) reply.runner_error = `round trip changed ${text.slice(0, 300)}`;
  // And through the generated typed layer (numbers the schema calls `number` made Decimal): a
  // typed result or event encodes back to the same text too.
  const typed = parse(text);
  if (key === 'event') methods.decodeEvent(typed);
  else if (typeof method === 'string' && typed !== null && typeof typed === 'object' && 'success' in typed) {
    typed.success = methods.decodeResult(method, typed.success);
  }
  if (stringify(typed) !== text) reply.runner_error = `typed round trip changed ${text.slice(0, 300)}`;
  return reply;
}

function frees(name) {
  const inbox = inboxes.get(name);
  return inbox ? inbox.sinks.filter((sink) => sink.released()).length : 0;
}

const OPS = {
  hello() {
    const statusNames = {};
    for (let code = -13; code < 2; code++) statusNames[String(code)] = addon.statusName(code);
    return { runner: 'node', abi_version: addon.abiVersion(), version: addon.version(),
      header_abi_version: addon.headerAbiVersion, status_names: statusNames };
  },

  client_new(op) {
    const name = op.client ?? 'main';
    const reply = addon.clientNew(argument(op, 'config'), Boolean(op.null_out_client));
    const answer = result({}, reply.status, reply.text);
    answer.client_set = reply.handle !== 0n;
    if (reply.handle !== 0n) {
      clients.set(name, reply.handle);
      inboxes.set(name, { events: [], sinks: [], wake: null });
    }
    return answer;
  },

  call(op) {
    const reply = addon.call(resolve(op.client), argument(op, 'method'), argument(op, 'params'), Boolean(op.null_out_json));
    return result({}, reply.status, reply.text, 'envelope', typeof op.method === 'string' ? op.method : null);
  },

  call_async(op) {
    const reply = addon.callAsync(resolve(op.client), argument(op, 'method'), argument(op, 'params'),
      Boolean(op.null_out_call_id));
    return { status: reply.status, status_name: addon.statusName(reply.status), call_id: reply.callId };
  },

  poll(op) {
    const reply = addon.poll(resolve(op.client), op.timeout_ms ?? 0);
    return result({}, reply.status, reply.text, reply.status === 0 ? 'event' : 'envelope');
  },

  // Polls while a worker thread frees the client: the worker starts its clock when told that
  // the poll is about to begin, as the Python runner's timer thread does.
  async poll_while_freeing(op) {
    const handle = clients.get(op.client);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(`
      const { workerData } = require('worker_threads');
      const { addon } = require(workerData.native);
      const flag = new Int32Array(workerData.flag);
      Atomics.wait(flag, 0, 0);
      Atomics.wait(flag, 0, 1, workerData.afterMs);
      addon.clientFree(workerData.handle);`,
    { eval: true, workerData: { native: path.join(__dirname, 'lib', 'native.js'), flag: flag.buffer, handle,
      afterMs: Number(op.free_after_ms) } });
    const exited = new Promise((done) => worker.once('exit', done));
    await new Promise((online) => worker.once('online', online));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    const reply = OPS.poll(op);
    await exited;
    return reply;
  },

  set_event_handler(op) {
    const name = op.client;
    const inbox = inboxes.get(name);
    let reply;
    if (op.enabled === false) {
      reply = addon.setEventHandler(resolve(name), null);
    } else if (inbox === undefined) {
      reply = addon.setEventHandler(resolve(name), () => {});
    } else {
      reply = addon.setEventHandler(resolve(name), (text) => {
        const event = parse(text);
        if (stringify(event) !== text) inbox.roundTrip = `round trip changed ${text.slice(0, 300)}`;
        inbox.events.push(event);
        if (inbox.wake) inbox.wake();
      });
      inbox.sinks.push(reply.sink);
    }
    if (reply.sink) reply.sink.unref();  // drain_events' timer keeps the loop alive while it waits
    return { status: reply.status, status_name: addon.statusName(reply.status) };
  },

  async drain_events(op) {
    const inbox = inboxes.get(op.client);
    const count = op.count ?? 0;
    if (inbox.events.length < count) {
      await new Promise((done) => {
        const timer = setTimeout(done, op.timeout_ms ?? 0);
        inbox.wake = () => { if (inbox.events.length >= count) { clearTimeout(timer); done(); } };
      });
      inbox.wake = null;
    }
    const events = inbox.events;
    inbox.events = [];
    const reply = { events, user_data_frees: frees(op.client) };
    if (inbox.roundTrip) reply.runner_error = inbox.roundTrip;
    return reply;
  },

  client_free(op) {
    const name = op.client;
    addon.clientFree(resolve(name));
    return inboxes.has(name) ? { user_data_frees: frees(name) } : {};
  },

  string_free_null() {
    addon.stringFreeNull();
    return {};
  },

  // A library's JSON (a result of `method`, or an event) through the typed layer and written back
  // (tests/conformance/future.py: what a newer library may write).
  decode(op) {
    const data = parse(op.json_text);
    if (op.kind === 'event') {
      const event = methods.decodeEvent(data);
      return { decoded_text: stringify(event), event_type: methods.EVENT_NAMES.includes(event.event) ? 'known' : 'unknown' };
    }
    if (!Object.prototype.hasOwnProperty.call(methods.METHODS, op.method)) return { runner_error: 'no typed result for this method' };
    return { decoded_text: stringify(methods.decodeResult(op.method, data)) };
  },
};
OPS.call_raw = OPS.call;

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const op = parse(line);
    const handler = OPS[op.op];
    const reply = handler ? await handler(op) : { runner_error: 'unknown op', op: op.op };
    if ((op.op === 'client_free' || op.op === 'poll_while_freeing') && clients.has(op.client)) freed.add(op.client);
    if (op.id !== undefined) reply.id = op.id;
    process.stdout.write(`${stringify(reply)}\n`);
  }
  for (const [name, handle] of clients) if (!freed.has(name)) addon.clientFree(handle);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(70);
});

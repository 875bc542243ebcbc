'use strict';
// Every string the library returns is copied and given back to paywire_string_free: the
// process does not grow over many calls, events and clients.
const test = require('node:test');
const assert = require('node:assert/strict');
const paywire = require('..');
const { exampleConfig } = require('./helpers');

function residentMb() {
  global.gc?.();
  return process.memoryUsage().rss / 1048576;
}

function burst(client, calls) {
  for (let i = 0; i < calls; i++) {
    client.call('get_paywall', { placement_id: 'onboarding' });
    assert.throws(() => client.call('get_paywall', { placement_id: 'nowhere' }), { code: 'not_found' });
  }
}

test('50,000 sync calls and 5,000 async calls do not grow the process', async () => {
  const client = new paywire.Client(exampleConfig());
  try {
    burst(client, 2000);  // warm up: caches, JIT, allocator pools
    for (let i = 0; i < 500; i++) await client.callAsync('get_sdk_version');
    const before = residentMb();
    burst(client, 25000);
    for (let round = 0; round < 50; round++) {
      await Promise.all(Array.from({ length: 100 }, () => client.callAsync('get_sdk_version')));
    }
    const grown = residentMb() - before;
    assert.ok(grown < 40, `resident memory grew by ${grown.toFixed(1)} MB`);
  } finally {
    client.close();
  }
});

test('1,000 clients with handlers, opened and closed', async () => {
  const before = residentMb();
  for (let i = 0; i < 1000; i++) {
    const client = new paywire.Client(exampleConfig());
    client.on('event', () => {});
    await client.callAsync('get_sdk_version');
    client.close();
  }
  const grown = residentMb() - before;
  assert.ok(grown < 40, `resident memory grew by ${grown.toFixed(1)} MB`);
});

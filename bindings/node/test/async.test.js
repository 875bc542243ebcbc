'use strict';
// Async calls, events through the handler (a ThreadSafeFunction), close.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const path = require('path');
const paywire = require('..');
const { exampleConfig } = require('./helpers');

test('callAsync resolves with the result its call_result carries', async () => {
  const client = new paywire.Client(exampleConfig());
  try {
    const profile = await client.callAsync('get_profile');
    assert.equal(profile.profile_id, 'demo-profile-0001');
    const results = await Promise.all([1, 2, 3].map(() => client.callAsync('get_sdk_version')));
    assert.deepEqual(results.map((r) => r.version), [paywire.version(), paywire.version(), paywire.version()]);
  } finally {
    client.close();
  }
});

test('callAsync rejects with a PaywireError for a failed call', async () => {
  const client = new paywire.Client(exampleConfig());
  try {
    await assert.rejects(client.callAsync('get_paywall', { placement_id: 3 }), (error) => {
      assert.ok(error instanceof paywire.PaywireError);
      assert.equal(error.code, 'wrong_param');
      assert.equal(error.details.field, 'placement_id');
      return true;
    });
  } finally {
    client.close();
  }
});

test('events reach listeners in seq order, never on the caller\'s stack', async () => {
  const client = new paywire.Client(exampleConfig());
  const events = [];
  let inCall = false;
  client.on('event', (event) => {
    assert.equal(inCall, false, 'an event was delivered inside a paywire call');
    events.push(event);
  });
  inCall = true;
  client.call('get_paywall', { placement_id: 'onboarding' });
  const promise = client.callAsync('get_profile');
  inCall = false;
  await promise;
  client.close();
  assert.equal(events[0].event, 'did_load_latest_profile');
  assert.ok(events.some((event) => event.event === 'call_result'));
  assert.deepEqual(events.map((event) => event.seq), events.map((_, index) => index + 1));
  assert.throws(() => client.poll(0), { code: 'closed' });
});

test('in handler mode poll is refused: events go to the handler', async () => {
  const client = new paywire.Client(exampleConfig());
  client.on('event', () => {});
  assert.throws(() => client.poll(0), { code: 'wrong_param' });
  client.close();
});

test('close is idempotent, later calls throw closed, a late async call rejects', async () => {
  const client = new paywire.Client(exampleConfig());
  client.close();
  client.close();
  assert.equal(client.closed, true);
  assert.throws(() => client.call('get_sdk_version'), { code: 'closed', status: 'CLOSED' });
  await assert.rejects(client.callAsync('get_sdk_version'), { code: 'closed' });
});

test('an async call still waiting when the client closes settles, never hangs', async () => {
  // A host store: get_paywall_products waits for the host, who never answers here.
  const client = new paywire.Client(exampleConfig({ store: { type: 'host' } }));
  const paywall = client.call('get_paywall', { placement_id: 'settings' });
  const waiting = client.callAsync('get_paywall_products', { paywall });
  const queued = client.callAsync('get_sdk_version');
  client.close();
  const outcomes = await Promise.allSettled([waiting, queued]);
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof paywire.PaywireError);
  }
});

function runChild(source) {
  return spawnSync(process.execPath, ['-e', source], {
    cwd: path.resolve(__dirname, '..'), env: process.env, encoding: 'utf8', timeout: 20000,
  });
}

test('an awaited callAsync keeps the process alive until it settles, an idle client does not', () => {
  const config = JSON.stringify(exampleConfig());
  const awaited = runChild(`const p = require('.'); const c = new p.Client(${config});
    c.callAsync('get_sdk_version').then((r) => { console.log('got', r.version); c.close(); });`);
  assert.equal(awaited.status, 0, awaited.stderr);
  assert.match(awaited.stdout, /^got \d/);
  // A handler set and the client never closed: the program still ends when its work is done.
  const idle = runChild(`const p = require('.'); const c = new p.Client(${config});
    c.on('event', () => {}); console.log('done');`);
  assert.equal(idle.status, 0, idle.stderr);
  assert.equal(idle.error, undefined);
});

test('a library that is not there is reported with the path tried', () => {
  const missing = spawnSync(process.execPath, ['-e', "require('.')"], {
    cwd: path.resolve(__dirname, '..'), encoding: 'utf8',
    env: { ...process.env, PAYWIRE_LIBRARY: '/nowhere/libpaywire.so.1' },
  });
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /libpaywire not found.*\/nowhere\/libpaywire\.so\.1/);
});

test('20,000 async calls fired before yielding each settle: answered, or refused with BUSY at the call', async () => {
  const client = new paywire.Client({ profile_id: 'flood', async_call_limit: 50, event_queue_limit: 16 });
  try {
    const outcomes = await Promise.allSettled(Array.from({ length: 20000 }, () => client.getProfileAsync()));
    const answered = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    assert.equal(answered.length + refused.length, 20000);
    for (const { value } of answered) assert.equal(value.profile_id, 'flood');
    for (const { reason } of refused) {
      assert.ok(reason instanceof paywire.PaywireError);
      assert.equal(reason.code, 'busy');
      assert.equal(reason.status, 'BUSY');
    }
    assert.ok(answered.length >= 50, `at least the limit answered: ${answered.length}`);
  } finally {
    client.close();
  }
});

test('calls waiting on the host past async_call_limit are refused at once; the accepted ones complete', async () => {
  const client = new paywire.Client(exampleConfig({ store: { type: 'host' }, async_call_limit: 5, host_request_timeout_ms: 60000 }));
  try {
    const paywall = client.call('get_paywall', { placement_id: 'onboarding' });
    client.on('event', (event) => {
      if (event.event === 'host_request' && event.kind === 'store.fetch_products') {
        client.call('host_respond', { request_id: event.request_id, result: { products: [] } });
      }
    });
    // None is answered before the loop turns: five wait for the host, the rest are refused.
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => client.getPaywallProductsAsync({ paywall })));
    assert.deepEqual(outcomes.map((o) => o.status), [...Array(5).fill('fulfilled'), ...Array(7).fill('rejected')]);
    for (const { reason } of outcomes.slice(5)) {
      assert.equal(reason.code, 'busy');
      assert.match(reason.message, /async_call_limit/);
    }
  } finally {
    client.close();
  }
});

test('calls still waiting when the client closes reject with closed', async () => {
  const client = new paywire.Client(exampleConfig({ store: { type: 'host' }, host_request_timeout_ms: 60000 }));
  const waiting = client.restorePurchasesAsync();
  await new Promise((resolve) => setTimeout(resolve, 200));
  client.close();
  await assert.rejects(waiting, (error) => error.code === 'closed');
});

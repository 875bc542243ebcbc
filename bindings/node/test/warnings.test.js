'use strict';
// What went otherwise than asked is a PaywireWarning (process.emitWarning); a near miss of a
// config key is refused, naming the key it likely meant.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const paywire = require('..');

const BUNDLE = path.join(__dirname, '..', '..', '..', 'examples', 'bundle.json');

// The PaywireWarnings emitted while `body` runs (warnings are emitted on the next tick).
async function warningsOf(body) {
  const seen = [];
  const listener = (warning) => { if (warning.name === 'PaywireWarning') seen.push(warning.message); };
  process.on('warning', listener);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

test('an unknown config key is a warning naming it; a clean config warns nothing', async () => {
  const seen = await warningsOf(() => new paywire.Client({ profile_id: 'w', colour: 'blue' }).close());
  assert.equal(seen.length, 1);
  assert.match(seen[0], /colour/);
  assert.deepEqual(await warningsOf(() => new paywire.Client({ profile_id: 'w' }).close()), []);
});

test('a near miss of a config key is refused with the key it likely meant', () => {
  assert.throws(() => new paywire.Client({ profile_id: 'w', fallbak: { path: BUNDLE } }),
    (error) => error.code === 'wrong_param' && error.details.did_you_mean === 'fallback');
});

test('a paywall served because the backend refused the key is a warning', async () => {
  const client = new paywire.Client({ profile_id: 'w', fallback: { path: BUNDLE }, api_key: 'wrong', refresh_profile_on_start: false,
    transport: { type: 'host', base_url: 'https://api.test' } });
  try {
    let request;
    const seen = await warningsOf(async () => {
      const answer = client.callAsync('get_paywall', { placement_id: 'onboarding' });
      request = await new Promise((resolve) => client.on('event', (event) => { if (event.event === 'host_request') resolve(event); }));
      client.call('host_respond', { request_id: request.request_id, result: { status: 401, headers: [],
        body: JSON.stringify({ error: { code: 'unauthorized', message: 'no' } }) } });
      const paywall = await answer;
      assert.equal(paywall.source, 'fallback');
    });
    assert.equal(seen.length, 1);
    assert.match(seen[0], /HTTP 401, unauthorized/);
  } finally {
    client.close();
  }
});

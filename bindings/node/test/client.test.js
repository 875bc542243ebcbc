'use strict';
// The Client over the real library: results, errors, exact decimals, the raw contract.
const test = require('node:test');
const assert = require('node:assert/strict');
const paywire = require('..');
const { exampleConfig } = require('./helpers');

function withClient(body) {
  return async () => {
    const client = new paywire.Client(exampleConfig());
    try {
      await body(client);
    } finally {
      client.close();
    }
  };
}

test('the library is loaded with the ABI this binding was written for', () => {
  assert.equal(paywire.abiVersion(), paywire.ABI_VERSION);
  assert.match(paywire.version(), /^\d+\.\d+\.\d+/);
  assert.match(paywire.libraryPath, /libpaywire\.so/);
});

test('call returns the success result', withClient((client) => {
  assert.equal(client.call('get_sdk_version').version, paywire.version());
  const paywall = client.call('get_paywall', { placement_id: 'onboarding' });
  assert.equal(typeof paywall.variation_id, 'string');
  assert.equal(paywall.placement.developer_id, 'onboarding');
}));

test('a failed call throws PaywireError with code, status and details', withClient((client) => {
  assert.throws(() => client.call('get_paywall', { placement_id: 'nowhere' }), (error) => {
    assert.ok(error instanceof paywire.PaywireError);
    assert.equal(error.code, 'not_found');
    assert.equal(error.status, 'FAILED');
    assert.equal(error.statusCode, paywire.STATUS.FAILED);
    assert.deepEqual(error.details, { placement_id: 'nowhere' });
    return true;
  });
  assert.throws(() => client.call('no_such_method'), { code: 'unknown_method', status: 'UNKNOWN_METHOD' });
  assert.throws(() => client.call('get_paywall', { placement_id: 3 }), { code: 'wrong_param' });
}));

test('a bad config throws from the constructor', () => {
  assert.throws(() => new paywire.Client({ event_queue_limit: 'many' }), paywire.PaywireError);
});

test('prices arrive as exact decimals', withClient((client) => {
  const paywall = client.call('get_paywall', { placement_id: 'settings' });
  const products = client.call('get_paywall_products', { paywall });
  const amounts = Object.fromEntries(products.map((p) => [p.vendor_product_id, p.price.amount]));
  assert.deepEqual(Object.keys(amounts).sort(), ['lifetime', 'premium_annual', 'premium_monthly']);
  assert.ok(amounts.premium_monthly instanceof paywire.Decimal);
  assert.equal(String(amounts.premium_monthly), '9.99');
  assert.equal(String(amounts.lifetime), '149.00');  // the library's spelling, trailing zeros kept
  assert.ok(amounts.lifetime.equals('149'));
  assert.equal(Number(amounts.premium_annual), 59.99);
}));

test('a decoded result encodes back to the JSON the library wrote', withClient((client) => {
  const paywall = client.call('get_paywall', { placement_id: 'settings' });
  const raw = client.callRaw('get_paywall_products', paywire.stringify({ paywall }));
  assert.equal(raw.status, paywire.STATUS.OK);
  assert.equal(raw.statusName, 'OK');
  assert.equal(paywire.stringify(paywire.parse(raw.text)), raw.text);
}));

test('callRaw passes text through and never throws for a wire error', withClient((client) => {
  const raw = client.callRaw('get_paywall', '{"placement_id": "nowhere"}');
  assert.equal(raw.statusName, 'FAILED');
  assert.equal(JSON.parse(raw.text).error.code, 'not_found');
  assert.equal(client.callRaw('get_paywall', '{not json').statusName, 'INVALID_JSON');
}));

test('exact JSON: big integers are BigInt, Decimal and BigInt are written as digits', () => {
  const text = '{"a":0.1000000000000000055511151231257827,"b":12345678901234567890,"c":1e400,"d":[-0,2]}';
  const value = paywire.parse(text);
  assert.equal(typeof value.b, 'bigint');
  assert.equal(paywire.stringify(value), '{"a":0.1000000000000000055511151231257827,"b":12345678901234567890,"c":1e400,"d":[0,2]}');
  assert.equal(paywire.stringify({ amount: new paywire.Decimal('39.99'), skip: undefined }), '{"amount":39.99}');
  assert.throws(() => new paywire.Decimal('9,99'), TypeError);
  assert.throws(() => paywire.parse('{"a":1,}'), SyntaxError);
});

test('poll returns events in poll mode, null on timeout', withClient((client) => {
  const first = client.poll(1000);
  assert.equal(first.event, 'did_load_latest_profile');
  assert.equal(first.seq, 1);
  assert.equal(client.poll(0), null);
  assert.throws(() => client.poll(-1), { code: 'wrong_param' });
}));

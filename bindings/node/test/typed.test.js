'use strict';
// The generated typed methods over the real library, exact numbers, and the schema check.
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const paywire = require('..');
const methods = require('../lib/generated/methods');
const { ROOT, exampleConfig } = require('./helpers');

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

test('typed methods return the results the untyped call does', withClient((client) => {
  const paywall = client.getPaywall({ placement_id: 'onboarding', locale: 'fr' });
  assert.deepEqual(paywall, client.call('get_paywall', { placement_id: 'onboarding', locale: 'fr' }));
  assert.equal(paywall.placement.developer_id, 'onboarding');
  assert.equal(typeof paywall.variation_id, 'string');
  assert.equal(client.getSdkVersion().version, paywire.version());  // no required params: no argument
  assert.equal(client.getProfile().profile_id, 'demo-profile-0001');
}));

test('typed prices are always Decimal, the library\'s spelling kept', withClient((client) => {
  const paywall = client.getPaywall({ placement_id: 'settings' });
  const products = client.getPaywallProducts({ paywall });
  const amounts = Object.fromEntries(products.map((p) => [p.vendor_product_id, p.price.amount]));
  for (const amount of Object.values(amounts)) assert.ok(amount instanceof paywire.Decimal);
  assert.equal(String(amounts.premium_monthly), '9.99');
  assert.equal(String(amounts.lifetime), '149.00');
}));

test('a schema number the library wrote as an integer is a Decimal too, and encodes back the same', () => {
  const text = '[{"vendor_product_id":"p","price":{"amount":149,"currency_code":"EUR"},"extra":7}]';
  const products = methods.decodeResult('get_paywall_products', paywire.parse(text));
  assert.ok(products[0].price.amount instanceof paywire.Decimal);
  assert.equal(String(products[0].price.amount), '149');
  assert.equal(products[0].extra, 7);  // members the schema does not call numbers stay as they are
  assert.equal(paywire.stringify(products), text);
  const event = methods.decodeEvent(paywire.parse('{"event":"did_load_latest_profile","seq":1,"profile":{"custom_attributes":{"age":30,"vip":true,"name":"x"}}}'));
  assert.ok(event.profile.custom_attributes.age instanceof paywire.Decimal);
  assert.equal(event.profile.custom_attributes.vip, true);
  assert.equal(event.seq, 1);
  assert.deepEqual(methods.decodeEvent({ event: 'from_a_newer_library', seq: 2, n: 3 }), { event: 'from_a_newer_library', seq: 2, n: 3 });
});

test('makePurchase takes the product getPaywallProducts returned', withClient((client) => {
  const paywall = client.getPaywall({ placement_id: 'onboarding' });
  const [product] = client.getPaywallProducts({ paywall });
  const result = client.makePurchase({ product, paywall });
  assert.equal(result.type, 'success');
  assert.equal(result.product_id, product.vendor_product_id);
}));

test('typed Async methods return Promises of the typed result', withClient(async (client) => {
  const promise = client.getPaywallAsync({ placement_id: 'settings' });
  assert.ok(promise instanceof Promise);
  const paywall = await promise;
  assert.equal(paywall.placement.developer_id, 'settings');
  const products = await client.getPaywallProductsAsync({ paywall });
  assert.ok(products.every((p) => p.price.amount instanceof paywire.Decimal));
  assert.equal((await client.getProfileAsync()).profile_id, 'demo-profile-0001');
  await assert.rejects(client.getPaywallAsync({ placement_id: 'nowhere' }), { code: 'not_found', status: 'FAILED' });
}));

test('a failed typed call throws PaywireError as call does', withClient((client) => {
  assert.throws(() => client.getPaywall({ placement_id: 'nowhere' }), (error) => {
    assert.ok(error instanceof paywire.PaywireError);
    assert.equal(error.code, 'not_found');
    assert.deepEqual(error.details, { placement_id: 'nowhere' });
    return true;
  });
  assert.throws(() => client.getPaywall(), { code: 'wrong_param' });
}));

test('the library and the binding were built from this schema', withClient((client) => {
  const schema = fs.readFileSync(path.join(ROOT, 'schema', 'paywire.schema.json'));
  const ours = crypto.createHash('sha256').update(schema).digest('hex');
  assert.equal(paywire.SCHEMA_SHA256, ours);
  assert.equal(paywire.SCHEMA_VERSION, JSON.parse(schema).version);
  assert.equal(client.getSdkVersion().schema_sha256, ours);
  assert.equal(client.getSdkVersion().schema_version, paywire.SCHEMA_VERSION);
}));

test('a library of the same MAJOR and a MINOR at least ours is accepted', () => {
  for (const [library, binding] of [['1.1', '1.1'], ['1.2', '1.1'], ['1.10', '1.9']]) {
    assert.equal(paywire.schemaMismatch(library, binding), null, `${library} for ${binding}`);
  }
});

test('any other library is refused, naming both versions', () => {
  for (const [library, binding] of [['1.0', '1.1'], ['2.0', '1.1'], [undefined, '1.1'], ['1', '1.1']]) {
    const error = paywire.schemaMismatch(library, binding);
    assert.ok(error instanceof paywire.PaywireError, `${library} for ${binding}`);
    assert.equal(error.status, 'VERSION_MISMATCH');
    assert.equal(error.statusCode, paywire.STATUS.VERSION_MISMATCH);
    assert.equal(error.code, 'schema_mismatch');
    assert.deepEqual(error.details, { library_schema_version: library ?? null, binding_schema_version: binding });
    assert.ok(error.message.includes(String(library)) && error.message.includes(binding), error.message);
  }
});

test('a client refuses a library older than its binding', () => {
  const library = methods.SCHEMA_VERSION;
  const [major, minor] = library.split('.');
  const newer = `${major}.${Number(minor) + 1}`;
  methods.SCHEMA_VERSION = newer;
  try {
    assert.throws(() => new paywire.Client(exampleConfig()), (error) => {
      assert.equal(error.status, 'VERSION_MISMATCH');
      assert.deepEqual(error.details, { library_schema_version: library, binding_schema_version: newer });
      return true;
    });
  } finally {
    methods.SCHEMA_VERSION = library;
  }
  new paywire.Client(exampleConfig()).close();  // the real version is accepted again
});

'use strict';
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const config = require(path.join(ROOT, 'examples', 'config.json'));

/** The example config with its bundle path made absolute (tests run from bindings/node). */
function exampleConfig(extra = {}) {
  return { ...config, fallback: { path: path.join(ROOT, 'examples', 'bundle.json') }, ...extra };
}

module.exports = { ROOT, exampleConfig };

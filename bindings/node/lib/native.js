'use strict';
// Loads the addon and, through it, libpaywire. Where the library is looked for, in order (the
// rules of the Python and JVM bindings): PAYWIRE_LIBRARY alone when it is set; a library inside
// this package (a packaged addon may carry one); build/lib/libpaywire.so.1 beside any folder
// above this package, so a checkout finds its own build; the system loader's search path
// (LD_LIBRARY_PATH, ldconfig); lib/ under PAYWIRE_PREFIX, /usr/local and /usr.
const path = require('path');

const ABI_VERSION = 1;
const SONAME = `libpaywire.so.${ABI_VERSION}`;
const PACKAGE_ROOT = path.resolve(__dirname, '..');

// Every place, in order; the addon opens the first that loads and, when none does, names each
// one it tried and why it failed (a missing file as well as one that would not load).
function candidates() {
  const explicit = process.env.PAYWIRE_LIBRARY;
  if (explicit) return [path.resolve(explicit)];
  const found = [path.join(PACKAGE_ROOT, SONAME)];
  for (let dir = PACKAGE_ROOT; ; dir = path.dirname(dir)) {
    found.push(path.join(dir, 'build', 'lib', SONAME));
    if (path.dirname(dir) === dir) break;
  }
  found.push(SONAME);
  for (const prefix of [process.env.PAYWIRE_PREFIX, '/usr/local', '/usr']) {
    if (prefix) found.push(path.join(prefix, 'lib', SONAME));
  }
  return found;
}

// The addon: built into build/Release by `make node` (node-gyp) in a checkout, and carried
// prebuilt there by the npm package `make dist` packs (nothing is compiled at install).
const addon = require(path.join(PACKAGE_ROOT, 'build', 'Release', 'paywire.node'));
if (addon.headerAbiVersion !== ABI_VERSION) {
  throw new Error(`the addon was built against ABI ${addon.headerAbiVersion}, this package needs ABI ${ABI_VERSION}`);
}
const libraryPath = addon.load(candidates());

module.exports = { addon, libraryPath, ABI_VERSION };

'use strict';
// No TypeScript compiler here (Debian's node-typescript needs Debian's nodejs): the
// declarations are checked against the module instead. Every value export is declared and
// every declared value exists, and every Client method declared is a function.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const paywire = require('..');

const declarations = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8');

test('index.d.ts declares exactly the module\'s exports', () => {
  const declared = [...declarations.matchAll(/^export declare (?:class|const|function) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(declared.sort(), Object.keys(paywire).sort());
});

test('every Client method declared exists', () => {
  const body = declarations.slice(declarations.indexOf('export declare class Client'));
  const methods = [...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}(\w+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]);
  assert.ok(methods.length >= 8);
  for (const method of methods) assert.equal(typeof paywire.Client.prototype[method], 'function', method);
});

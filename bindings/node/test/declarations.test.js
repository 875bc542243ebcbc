'use strict';
// No TypeScript compiler here (Debian's node-typescript needs Debian's nodejs): the
// declarations are checked against the module and the schema instead. Every value export is
// declared and every declared value exists; every Client method declared is a function; every
// wire method of the schema has a typed method and its Promise twin, declared with its params
// model and result; every type the declarations name is declared; the event union names every
// event of the schema by its `event`.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const paywire = require('..');
const methods = require('../lib/generated/methods');
const { ROOT } = require('./helpers');

const read = (file) => fs.readFileSync(path.join(__dirname, '..', file), 'utf8');
const declarations = read('index.d.ts');
const models = read('lib/generated/models.d.ts');
const methodDeclarations = read('lib/generated/methods.d.ts');
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schema', 'paywire.schema.json'), 'utf8'));
const wireMethods = Object.keys(schema.$defs.params).filter((name) => name !== 'description');
const wireEvents = Object.keys(schema.$defs.events).filter((name) => name !== 'description');

const lowerCamel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const code = (text) => text.replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/'[^'\n]*'|"[^"\n]*"/g, '""');

test('index.d.ts declares exactly the module\'s exports', () => {
  const declared = [...declarations.matchAll(/^export declare (?:class|const|function) (\w+)/gm)].map((m) => m[1]);
  for (const [, names] of declarations.matchAll(/^export \{([^}]*)\} from/gm)) {
    declared.push(...names.split(',').map((name) => name.trim()).filter(Boolean));
  }
  assert.deepEqual(declared.sort(), Object.keys(paywire).sort());
  assert.match(declarations, /^export \* from '\.\/lib\/generated\/models';$/m);
});

test('every module a declaration file imports is there', () => {
  // Without a compiler, a moved file would leave a dangling import that nothing notices.
  for (const file of ['index.d.ts', 'lib/generated/models.d.ts', 'lib/generated/methods.d.ts']) {
    for (const [, target] of read(file).matchAll(/ from '(\.[^']*)';$/gm)) {
      const base = path.join(__dirname, '..', path.dirname(file), target);
      assert.ok(fs.existsSync(`${base}.d.ts`) || fs.existsSync(path.join(base, 'index.d.ts')),
        `${file} imports ${target}, which is not there`);
    }
  }
});

test('every Client method declared exists', () => {
  const body = declarations.slice(declarations.indexOf('export declare class Client'));
  const declared = [...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}(\w+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]);
  assert.ok(declared.length >= 8);
  for (const method of declared) assert.equal(typeof paywire.Client.prototype[method], 'function', method);
});

test('every wire method has a typed method and a Promise twin, declared with its models', () => {
  assert.deepEqual(Object.keys(methods.METHODS).sort(), wireMethods.slice().sort());
  const declared = new Map([...methodDeclarations.matchAll(/^ {2}(\w+)\(params(\??): (\w+)\): (.+);$/gm)]
    .map((m) => [m[1], { optional: m[2] === '?', params: m[3], result: m[4] }]));
  for (const wire of wireMethods) {
    const name = lowerCamel(wire);
    assert.equal(methods.METHODS[wire], name);
    for (const member of [name, `${name}Async`]) {
      assert.equal(typeof paywire.Client.prototype[member], 'function', member);
      assert.ok(declared.has(member), `lib/generated/methods.d.ts declares no ${member}`);
    }
    const sync = declared.get(name);
    const promise = declared.get(`${name}Async`);
    assert.equal(promise.params, sync.params);
    assert.equal(promise.result, `Promise<${sync.result}>`, wire);
    assert.match(models, new RegExp(`^ {2}${wire}: \\{ params: ${sync.params}; result: `, 'm'));
    // The params model has the schema's members, required ones without `?`.
    const node = schema.$defs.params[wire];
    if (node.properties) {
      const body = models.slice(models.indexOf(`export interface ${sync.params} {`));
      const members = [...code(body.slice(0, body.indexOf('\n}'))).matchAll(/^ {2}(\w+)(\??):/gm)];
      assert.deepEqual(members.map((m) => m[1]).sort(), Object.keys(node.properties).sort(), wire);
      const required = members.filter((m) => m[2] === '').map((m) => m[1]);
      assert.deepEqual(required.sort(), (node.required || []).slice().sort(), wire);
      assert.equal(sync.optional, required.length === 0, wire);
    }
  }
  assert.equal(declared.size, 2 * wireMethods.length);
});

test('every type the declarations name is declared', () => {
  const declaredTypes = new Set([...models.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));
  const fromIndex = new Set(['Decimal', 'JsonObject', 'JsonValue']);
  for (const name of fromIndex) assert.match(declarations, new RegExp(`^export (?:declare class|type|interface) ${name}\\b`, 'm'));
  for (const [file, text] of [['lib/generated/models.d.ts', models], ['lib/generated/methods.d.ts', methodDeclarations]]) {
    const body = code(text).replace(/^import[\s\S]*?;$/gm, '');
    const generics = new Set([...body.matchAll(/<(\w+) extends /g)].map((m) => m[1]));
    for (const [name] of body.matchAll(/\b[A-Z]\w*\b/g)) {
      if (['Promise', 'Array', 'Readonly', 'EventEmitter', 'ReadonlyArray', 'TypedMethods', 'SCHEMA_SHA256', 'SCHEMA_VERSION', 'SCHEMA_ID', 'METHODS', 'EVENT_NAMES'].includes(name)) continue;
      assert.ok(declaredTypes.has(name) || fromIndex.has(name) || generics.has(name), `${file} names ${name}, which is declared nowhere`);
    }
  }
  // index.d.ts declares nothing the generated models also export (a local name would hide it).
  const local = [...declarations.matchAll(/^export (?:declare )?(?:class|interface|type|const|function) (\w+)/gm)].map((m) => m[1]);
  for (const name of local) assert.ok(!declaredTypes.has(name), `index.d.ts hides the generated ${name}`);
});

test('the Event union names every event of the schema by its `event`', () => {
  const union = models.slice(models.indexOf('export type Event ='));
  const members = [...union.slice(0, union.indexOf(';')).matchAll(/\| (\w+)/g)].map((m) => m[1]);
  const names = members.map((cls) => {
    const match = new RegExp(`^export interface ${cls} \\{\\n {2}event: "([^"]+)";\\n[\\s\\S]*?^ {2}seq: number;`, 'm').exec(models);
    assert.ok(match, `${cls} has no event and seq`);
    return match[1];
  });
  assert.deepEqual(names.sort(), wireEvents.slice().sort());
});

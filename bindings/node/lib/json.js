'use strict';
// JSON with exact numbers. JSON.parse turns every number into a binary double: a price of 9.99
// survives the trip only by luck of printing, arithmetic on it drifts (39.989999999999995), and
// integers past 2^53 silently change. So, as the Python binding parses floats as Decimal:
//   - a number with a fraction or an exponent becomes a Decimal, which keeps the text the
//     library wrote (exact; `String(d)` gives it back, `Number(d)` an approximation);
//   - an integer becomes a number when it is safe (|n| <= 2^53 - 1), else a BigInt.
// stringify writes Decimals and BigInts back as those digits, so a decoded result encodes to
// the JSON the library wrote. (Node 20 has no JSON.parse source access nor JSON.rawJSON.)

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const CONTROL = /[\u0000-\u001f]/;
const WHITESPACE = /[ \t\n\r]*/y;
const MAX_DEPTH = 512;

/** An exact decimal number as text, e.g. a price's amount. Not an arithmetic type. */
class Decimal {
  constructor(value) {
    const text = typeof value === 'string' ? value.trim() : String(value);
    NUMBER.lastIndex = 0;
    const match = NUMBER.exec(text);
    if (match === null || match[0].length !== text.length) throw new TypeError(`not a decimal number: ${value}`);
    this.text = text;
    Object.freeze(this);
  }
  toString() { return this.text; }
  valueOf() { return Number(this.text); }
  /** JSON.stringify (not this module's stringify) writes the nearest double. */
  toJSON() { return Number(this.text); }
  /** Same value, whatever the spelling: 9.9 equals 9.90 and 99e-1. */
  equals(other) {
    const a = normalize(this.text);
    const b = normalize(other instanceof Decimal ? other.text : new Decimal(other).text);
    return a.sign === b.sign && a.digits === b.digits && a.exponent === b.exponent;
  }
  [Symbol.for('nodejs.util.inspect.custom')]() { return `Decimal(${this.text})`; }
}

// sign, significant digits without leading or trailing zeros, and the exponent of the last one.
function normalize(text) {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  let digits = (whole + fraction).replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return digits === '' ? { sign: '', digits: '0', exponent: 0 } : { sign, digits, exponent: power };
}

class Parser {
  constructor(text) { this.text = text; this.at = 0; }

  fail(what) { throw new SyntaxError(`invalid JSON at ${this.at}: ${what}`); }

  skip() { WHITESPACE.lastIndex = this.at; WHITESPACE.exec(this.text); this.at = WHITESPACE.lastIndex; }

  value(depth) {
    if (depth > MAX_DEPTH) this.fail('nested too deep');
    this.skip();
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]]) {
      if (this.text.startsWith(word, this.at)) { this.at += word.length; return value; }
    }
    return this.fail(c === undefined ? 'unexpected end' : `unexpected ${JSON.stringify(c)}`);
  }

  // Scans to the closing quote with indexOf (a regex over a 10 MB string overflows V8's
  // backtracking stack), then lets JSON.parse decode and check the escapes.
  string() {
    let end = this.at;
    for (;;) {
      end = this.text.indexOf('"', end + 1);
      if (end < 0) this.fail('unterminated string');
      let backslashes = 0;
      while (this.text[end - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 0) break;
    }
    const literal = this.text.slice(this.at, end + 1);
    this.at = end + 1;
    if (literal.includes('\\')) return JSON.parse(literal);
    if (CONTROL.test(literal)) this.fail('control character in a string');
    return literal.slice(1, -1);
  }

  number() {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('bad number');
    this.at = NUMBER.lastIndex;
    const text = match[0];
    if (match[1] !== undefined || match[2] !== undefined) return new Decimal(text);
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }

  array(depth) {
    const items = [];
    this.at++;
    this.skip();
    if (this.text[this.at] === ']') { this.at++; return items; }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skip();
      const c = this.text[this.at++];
      if (c === ']') return items;
      if (c !== ',') this.fail('expected , or ]');
    }
  }

  object(depth) {
    const object = {};
    this.at++;
    this.skip();
    if (this.text[this.at] === '}') { this.at++; return object; }
    for (;;) {
      this.skip();
      if (this.text[this.at] !== '"') this.fail('expected a key');
      const key = this.string();
      this.skip();
      if (this.text[this.at++] !== ':') this.fail('expected :');
      // defineProperty: a key "__proto__" is data, not the prototype (as with JSON.parse).
      Object.defineProperty(object, key, { value: this.value(depth + 1), writable: true, enumerable: true, configurable: true });
      this.skip();
      const c = this.text[this.at++];
      if (c === '}') return object;
      if (c !== ',') this.fail('expected , or }');
    }
  }
}

/** Parses JSON text with exact numbers (see above). */
function parse(text) {
  const parser = new Parser(String(text));
  const value = parser.value(0);
  parser.skip();
  if (parser.at !== parser.text.length) parser.fail('text after the value');
  return value;
}

/** Like JSON.stringify(value) without spacing, but Decimal and BigInt are written exactly. */
function stringify(value) {
  const out = write(value, 0);
  return out === undefined ? 'null' : out;
}

function write(value, depth) {
  if (depth > MAX_DEPTH) throw new RangeError('value nested too deep');
  if (value instanceof Decimal) return value.text;
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') value = value.toJSON();
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'bigint': return value.toString();
    case 'boolean': return String(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      if (value instanceof Decimal) return value.text;
      if (Array.isArray(value)) return `[${value.map((item) => write(item, depth + 1) ?? 'null').join(',')}]`;
      return `{${Object.keys(value).flatMap((key) => {
        const item = write(value[key], depth + 1);
        return item === undefined ? [] : [`${JSON.stringify(key)}:${item}`];
      }).join(',')}}`;
    default: return undefined;  // undefined, functions, symbols: left out, as JSON.stringify does
  }
}

module.exports = { Decimal, parse, stringify };

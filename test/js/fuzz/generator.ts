// Random JavaScript functions for the JS translator's differential fuzzer (test/js/fuzz.test.ts),
// the JS counterpart of test/sot/fuzz/generator.py. `generate(seed)` returns the source text of
// one function `f(x, y, n, r, flag, lst, o)` over two [2, 3] tensors, a number, a float, a
// boolean, an array of numbers and an options object: arithmetic, ternaries, `&&`/`||`/`??`,
// loops over constants and arrays, switch, arrays/objects and destructuring, closures, paddle
// ops and Tensor methods, mutation of the outside array and object, and the odd graph break
// (console.log, .item(), .tolist()).
//
// The texts are never evaluated: `npx tsx test/js/fuzz/generator.ts --write` writes them into
// ordinary modules (cases_N.generated.ts) that the test imports, and the test checks those files
// are what the generator makes. Programs run without errors eagerly (no division by values
// that may be 0, indexes in range), so any difference between captured and eager results,
// printed output or argument mutation is a translator bug.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../../../src/io/prng.js';

// Tensors keep shape [2, 3] (or broadcast with it).
const T_UNARY = [
  'paddle.scale({a}, 2)', 'paddle.subtract({a}, 1.5)', 'paddle.tanh({a})', 'paddle.nn.functional.relu({a})', '{a}.abs()',
  'paddle.divide({a}, paddle.add({a}.abs(), 1))', '{a}.reshape([3, 2]).reshape([2, 3])', '{a}.transpose([1, 0]).transpose([1, 0])',
  'paddle.add({a}.sum({ axis: 1, keepdim: true }), {a})', 'paddle.subtract({a}, {a}.mean())', 'paddle.add({a}.get(0), {a})',
  'paddle.clip({a}, -2, 2)', 'paddle.pow({a}, 2)', 'paddle.exp(paddle.scale({a}, 0.1))', 'paddle.nn.functional.sigmoid({a})',
  'paddle.nn.functional.softmax({a}, -1)', 'paddle.concat([{a}, {a}], 0).reshape([2, 2, 3]).sum({ axis: 0 })',
];
const T_BINARY = [
  'paddle.add({a}, {b})', 'paddle.subtract({a}, {b})', '{a}.multiply({b})', 'paddle.divide({a}, paddle.add({b}.abs(), 1))',
  'paddle.maximum({a}, {b})', 'paddle.where(paddle.greater_than({a}, {b}), {a}, {b})', 'paddle.scale(paddle.add({a}, {b}), 0.5)',
  'paddle.stack([{a}, {b}], 0).mean({ axis: 0 })', '{a}.add({b})',
];
const T_SCALAR = ['paddle.scale({a}, {s})', 'paddle.add({a}, {s})', 'paddle.scale({a}, {s} % 3)', 'paddle.add({a}, SCALE * {s})', 'paddle.scale({a}, lst.length)'];
const NUM = [
  '{i} + {j}', '{i} - {j} * 2', '{i} * {j} % 7', '({i} > {j} ? {i} : {j})', 'Math.max({i}, {j})', 'Math.abs({i}) % 5', 'Math.floor({i})',
  'lst.length', 'o.k0 + {i}', 'String({i}).length', 'lst.reduce((a, b) => a + b, 0)', '({i} ?? 1)', '[{i}, {j}].indexOf({j})',
  'x.shape[1] + {i}', '`${{i}}-${{j}}`.length', 'lst.filter((v) => v > {i}).length', 'Object.keys(o).length', '{i} / 4',
  'Number({b}) + {i}', 'lst.map((v, k) => v * k).reduce((a, b) => a + b, 0)', '({b} && {i}) || {j}', 'Math.min({i}, 3, {j})',
  '({ p: {i}, q: {j} }).q', '[{i}, {j}, 1].at(-1)', 'COUNT * {i}', '(-({i})) % 3', 'parseInt(String({i} * 10))',
];
const BOOL = [
  '{i} > {j}', '{i} === {j}', '{b} && {i} < 3', '!{b}', 'lst.includes({i})', '"k1" in o', '{b} || {i} % 2 === 0', 'lst.length > 2',
  'x.shape[0] === 2', 'typeof {i} === "number"', '{i} == String({i})', 'Array.isArray(lst)', 'lst.some((v) => v < 0)',
];
const BREAKS = ['console.log("n is", {i});', '{v} = {v} + {a}.sum().item();', '{v} = {v} + {a}.tolist().length;', 'console.info({i});'];

class Gen {
  private readonly r: () => number;
  private readonly lines: string[] = [];
  private ind = 1;
  private k = 0;
  private readonly tensors = ['x', 'y'];
  private readonly nums = ['n', 'r'];
  private readonly bools = ['flag'];
  private depth = 0;
  /** Inside `for (... of lst)`: pushing to lst there would loop forever eagerly. */
  private inLst = 0;
  /** Loop counters: never assigned (that could make a loop endless eagerly). */
  private readonly counters = new Set<string>();
  private assignable(): string { return this.pick(this.nums.filter((v) => !this.counters.has(v))); }
  /** Seeded (mulberry32): the same seed gives the same program everywhere. */
  constructor(seed: number) { this.r = mulberry32(seed); }

  private int(n: number): number { return Math.floor(this.r() * n); }
  private pick<T>(a: readonly T[]): T { return a[this.int(a.length)]; }
  private fresh(p: string): string { return `${p}${this.k++}`; }
  private emit(s: string): void { this.lines.push(`${'  '.repeat(this.ind)}${s}`); }
  private fill(tpl: string, m: Record<string, () => string>): string {
    return tpl.replace(/\{(\w)\}/g, (_, c: string) => m[c]());
  }
  private t(): string { return this.pick(this.tensors); }
  private num(): string {
    if (this.depth > 1 || this.r() < 0.4) {
      if (this.r() < 0.3) { const c = this.int(7) - 2; return c < 0 ? `(${c})` : String(c); }
      return this.pick(this.nums);
    }
    this.depth++;
    const e = this.fill(this.pick(NUM), { i: () => this.num(), j: () => this.num(), b: () => this.bool() });
    this.depth--;
    return `(${e})`;
  }
  private bool(): string {
    if (this.depth > 1 || this.r() < 0.3) return this.pick(this.bools);
    this.depth++;
    const e = this.fill(this.pick(BOOL), { i: () => this.num(), j: () => this.num(), b: () => this.bool() });
    this.depth--;
    return `(${e})`;
  }
  private tensor(): string {
    const p = this.r();
    const m = { a: () => this.t(), b: () => this.t(), s: () => this.num() };
    // A scalar factor from the numbers is squashed so loops cannot blow values up.
    if (p < 0.4) return this.fill(this.pick(T_UNARY), m);
    if (p < 0.75) return this.fill(this.pick(T_BINARY), m);
    return `paddle.tanh(${this.fill(this.pick(T_SCALAR), m)})`;
  }

  private stmt(budget: number): void {
    const p = this.r();
    if (p < 0.2) { const v = this.fresh('t'); this.emit(`let ${v} = ${this.tensor()};`); this.tensors.push(v); return; }
    if (p < 0.3) { const v = this.fresh('v'); this.emit(`let ${v} = ${this.num()};`); this.nums.push(v); return; }
    if (p < 0.35) { const v = this.fresh('b'); this.emit(`const ${v} = ${this.bool()};`); this.bools.push(v); return; }
    if (p < 0.42) { this.emit(`${this.t()} = ${this.bool()} ? ${this.tensor()} : ${this.tensor()};`); return; }
    if (p < 0.5 && budget > 1) {
      this.emit(`if (${this.bool()}) {`);
      this.block(budget);
      if (this.r() < 0.5) { this.emit('} else {'); this.block(budget); }
      this.emit('}');
      return;
    }
    if (p < 0.56 && budget > 1) {
      const i = this.fresh('i');
      this.emit(`for (let ${i} = 0; ${i} < ${1 + this.int(3)}; ${i}++) {`);
      this.nums.push(i);
      this.counters.add(i);
      this.block(budget);
      this.nums.pop();
      this.emit('}');
      return;
    }
    if (p < 0.6 && budget > 1) {
      const v = this.fresh('e');
      this.emit(`for (let ${v} of lst) {`);
      this.nums.push(v);
      this.inLst++;
      this.block(budget);
      this.inLst--;
      this.nums.pop();
      this.emit('}');
      return;
    }
    if (p < 0.64) {
      const a = this.fresh('arr');
      this.emit(`const ${a} = [${this.t()}, ${this.tensor()}];`);
      const t = this.t();
      this.emit(this.r() < 0.5 ? `${t} = ${a}[${this.int(2)}];` : `${t} = ${a}.map((q) => paddle.tanh(q)).reduce((p, q) => paddle.add(p, q));`);
      return;
    }
    if (p < 0.68) {
      const [a, b] = [this.fresh('d'), this.fresh('d')];
      this.emit(`let { ${a}, ${b} = ${this.num()} } = { ${a}: ${this.num()}, w: ${this.t()} };`);
      this.nums.push(a, b);
      return;
    }
    if (p < 0.72) {
      const h = this.fresh('h');
      this.emit(`const ${h} = (a, k = 1) => paddle.tanh(paddle.scale(a, k % 3));`);
      this.emit(`${this.t()} = ${h}(${this.t()}${this.r() < 0.5 ? `, ${this.num()}` : ''});`);
      return;
    }
    if (p < 0.76) { this.emit(this.r() < 0.5 && !this.inLst ? `lst.push(${this.num()});` : `o.k0 = ${this.num()};`); return; }
    if (p < 0.8) {
      this.emit(`switch (${this.pick(this.nums)} % 3) {`);
      this.emit(`  case 0: ${this.t()} = ${this.tensor()}; break;`);
      this.emit(`  case 1: ${this.assignable()} = ${this.num()};`);
      this.emit(`  default: ${this.t()} = paddle.tanh(${this.t()});`);
      this.emit('}');
      return;
    }
    if (p < 0.83) {
      const m = this.fresh('m');
      this.emit(`const ${m} = new Map([["a", ${this.t()}]]);`);
      this.emit(`${m}.set("b", ${this.num()});`);
      this.emit(`${this.t()} = ${m}.has("a") ? paddle.scale(${m}.get("a"), ${m}.size) : ${this.t()};`);
      return;
    }
    if (p < 0.88) {
      const v = this.fresh('s');
      this.emit(`const ${v} = "k" + ${this.num()};`);
      this.emit(`${this.assignable()} = ${v}.length + (o[${v}] ?? 0);`);
      return;
    }
    if (p < 0.92) { this.emit(this.fill(this.pick(BREAKS), { i: () => this.num(), v: () => this.assignable(), a: () => this.t() })); return; }
    this.emit(`${this.t()} = ${this.tensor()};`);
  }

  private block(budget: number): void {
    this.ind++;
    // Declarations inside a block go out of scope at its end.
    const saved = [this.tensors.length, this.nums.length, this.bools.length];
    const n = 1 + this.int(2);
    for (let i = 0; i < n; i++) this.stmt(budget - 1);
    this.tensors.length = saved[0]; this.nums.length = saved[1]; this.bools.length = saved[2];
    this.ind--;
  }

  program(name: string): string {
    const n = 3 + this.int(6);
    for (let i = 0; i < n; i++) this.stmt(3);
    const p = this.r();
    const t = this.t();
    this.emit(p < 0.4 ? `return ${t};` : p < 0.7 ? `return [${t}, ${this.num()}, ${this.bool()}];` : `return { out: ${this.tensor()}, v: ${this.num()}, lst };`);
    return `function ${name}(x, y, n, r, flag, lst, o) {\n${this.lines.join('\n')}\n}`;
  }
}

export function generate(seed: number): string { return new Gen(seed).program(`f${seed}`); }

/** The fuzzer's cases: seeds [first, first + count), in files of PER_FILE functions. */
export const SEEDS = { first: 1, count: 300 };
export const PER_FILE = 45;

export function generatedFile(index: number): string {
  const seeds: number[] = [];
  for (let s = SEEDS.first + index * PER_FILE; s < Math.min(SEEDS.first + SEEDS.count, SEEDS.first + (index + 1) * PER_FILE); s++) seeds.push(s);
  return [
    '// @ts-nocheck',
    '// Generated by test/js/fuzz/generator.ts (npx tsx test/js/fuzz/generator.ts --write): do not edit.',
    "import { paddle as P } from '../../../frontend/index.js';",
    '',
    'const paddle = P;',
    'const SCALE = 0.5;',
    'const COUNT = 2;',
    'export const scope = { paddle, SCALE, COUNT };',
    '',
    ...seeds.map((s) => `${generate(s)}\n`),
    `export const cases = [${seeds.map((s) => `f${s}`).join(', ')}];`,
    '',
  ].join('\n');
}

export const fileCount = (): number => Math.ceil(SEEDS.count / PER_FILE);
export const fileName = (i: number): string => `cases_${i}.generated.ts`;

if (process.argv.includes('--write')) {
  const dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < fileCount(); i++) writeFileSync(join(dir, fileName(i)), generatedFile(i));
}

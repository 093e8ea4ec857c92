// Parser for the text form printed by printer.ts (grammar in docs/pir.md). Hand-written
// recursive descent over characters, since types like `tensor<s0x128xf32>` are not made of
// ordinary tokens. Values may be used before their definition (a placeholder is replaced when
// the definition is reached) so the verifier, not the parser, reports dominance errors.
// Errors carry line:column and the op being parsed.
import './dialects/index.js';
import { isDType } from '../tensor/dtype.js';
import { type Dim, SymDim } from '../tensor/shape.js';
import { Attr, type Attribute } from './attributes.js';
import { Block, Operation, Program, Value } from './core.js';
import { SHORT_DTYPE, scalarType, tensorType, type Type, typeEq, UNKNOWN_DIM, vectorType } from './types.js';

export class PirParseError extends Error {
  override name = 'PirParseError';
  constructor(readonly line: number, readonly column: number, readonly opName: string | null, readonly reason: string) {
    super(`${line}:${column}: ${reason}${opName ? ` (in "${opName}")` : ''}`);
  }
}

/** Stands for a value used before its definition; replaced when the definition is parsed. */
class Placeholder extends Value {
  constructor(type: Type, readonly at: number, readonly opName: string | null) { super(type); }
  get definingOp(): null { return null; }
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const KEY = /[A-Za-z_][\w.]*/y;
const VALUE_NAME = /%[A-Za-z0-9_.]+/y;
const NUMBER = /-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|inf|nan)/y;

class Parser {
  private pos = 0;
  private opName: string | null = null;
  private readonly values = new Map<string, Value>();
  private readonly pending = new Map<string, Placeholder>();

  constructor(private readonly src: string) {}

  // ---- low level ----

  fail(msg: string, at = this.pos): never {
    let line = 1, col = 1;
    for (let i = 0; i < at && i < this.src.length; i++) {
      if (this.src[i] === '\n') { line++; col = 1; } else col++;
    }
    throw new PirParseError(line, col, this.opName, msg);
  }
  ws(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\n' || c === '\t' || c === '\r') this.pos++;
      else if (c === '/' && this.src[this.pos + 1] === '/') {
        const e = this.src.indexOf('\n', this.pos);
        this.pos = e < 0 ? this.src.length : e;
      } else return;
    }
  }
  peek(s: string): boolean { this.ws(); return this.src.startsWith(s, this.pos); }
  eat(s: string): boolean {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }
  expect(s: string, what = `'${s}'`): void {
    if (!this.eat(s)) this.fail(`expected ${what}, found ${this.found()}`);
  }
  found(): string {
    this.ws();
    if (this.pos >= this.src.length) return 'end of input';
    return `'${this.src.slice(this.pos, this.pos + 12).split('\n')[0]}'`;
  }
  match(re: RegExp): string | null {
    this.ws();
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }
  /** A comma-separated list up to `close` (the opening bracket already consumed). */
  list<T>(close: string, item: () => T): T[] {
    const out: T[] = [];
    if (this.eat(close)) return out;
    do out.push(item()); while (this.eat(','));
    this.expect(close, `',' or '${close}'`);
    return out;
  }
  str(): string {
    this.ws();
    const start = this.pos;
    if (this.src[start] !== '"') this.fail(`expected a string, found ${this.found()}`);
    let i = start + 1;
    while (i < this.src.length && this.src[i] !== '"') {
      if (this.src[i] === '\n') break;
      i += this.src[i] === '\\' ? 2 : 1;
    }
    if (this.src[i] !== '"') this.fail('unterminated string', start);
    this.pos = i + 1;
    try {
      return JSON.parse(this.src.slice(start, i + 1)) as string;
    } catch {
      return this.fail('bad escape in string', start);
    }
  }

  // ---- types ----

  type(): Type {
    this.ws();
    const at = this.pos;
    if (this.eat('tensor<')) return this.tensorBody();
    if (this.eat('vec[')) return vectorType(this.list(']', () => this.type()));
    const id = this.match(IDENT);
    if (id && SHORT_DTYPE[id]) return scalarType(SHORT_DTYPE[id]);
    return this.fail(`expected a type, found ${id ? `'${id}'` : this.found()}`, at);
  }
  /** `(dim 'x')* dtype '>'` with no spaces: `2x?xs0x(s0*2)xf32>`. */
  private tensorBody(): Type {
    const dims: Dim[] = [];
    for (;;) {
      const at = this.pos;
      const c = this.src[this.pos];
      let dim: Dim | null = null;
      let word: string | null = null;
      if (c === '?') { this.pos++; dim = UNKNOWN_DIM; } else if (c === '(') dim = this.parenDim();
      else if (c === '-' || (c >= '0' && c <= '9')) {
        const m = /-?\d+/y; m.lastIndex = this.pos;
        const s = m.exec(this.src)?.[0];
        if (!s) this.fail('expected a dimension');
        this.pos += s.length;
        dim = Number(s);
      } else {
        const m = /[A-Za-wyz_][A-Za-wyz0-9_]*/y; m.lastIndex = this.pos;  // a bare name never holds the separator 'x'
        word = m.exec(this.src)?.[0] ?? null;
        if (!word) this.fail(`expected a dimension or element type in tensor type, found ${this.found()}`, at);
        this.pos += word.length;
      }
      if (this.src[this.pos] === 'x') { this.pos++; dims.push(dim ?? SymDim.of(word!)); continue; }
      if (this.src[this.pos] !== '>') this.fail(`expected 'x' or '>' in tensor type, found ${this.found()}`);
      this.pos++;
      if (word === null || !SHORT_DTYPE[word]) this.fail(`expected an element type (f32, i64, bool, ...) at the end of the tensor type`, at);
      return tensorType(SHORT_DTYPE[word], dims);
    }
  }
  private parenDim(): Dim {
    const start = this.pos;
    let depth = 0;
    do {
      const c = this.src[this.pos++];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === undefined || c === '\n' || c === '>' || c === '?') this.fail('bad symbolic dimension', start);
    } while (depth > 0);
    const expr = this.src.slice(start + 1, this.pos - 1);
    if (!expr.trim()) this.fail('empty symbolic dimension', start);
    return SymDim.of(expr);
  }
  /** Fails unless only whitespace and comments remain. */
  end(): void {
    this.ws();
    if (this.pos < this.src.length) this.fail(`unexpected text: ${this.found()}`);
  }
  private dimInList(): Dim {
    this.ws();
    const c = this.src[this.pos];
    if (c === '?') { this.pos++; return UNKNOWN_DIM; }
    if (c === '(') return this.parenDim();
    const n = this.match(/-?\d+/y);
    if (n !== null) return Number(n);
    const id = this.match(IDENT);
    return id !== null ? SymDim.of(id) : this.fail(`expected a dimension, found ${this.found()}`);
  }

  // ---- attributes ----

  attr(): Attribute {
    this.ws();
    const at = this.pos;
    const c = this.src[this.pos];
    if (c === '"') return Attr.str(this.str());
    if (c === '[') { this.pos++; return Attr.array(this.list(']', () => this.attr())); }
    if (c === '-' || (c >= '0' && c <= '9')) return this.num(false);
    const id = this.match(IDENT);
    if (id === null) return this.fail(`expected an attribute value, found ${this.found()}`);
    if (this.src[this.pos] === '[') {
      this.pos++;
      if (id === 'i64') return Attr.ints(this.list(']', () => this.int()));
      if (id === 'f64') return Attr.floats(this.list(']', () => this.float()));
      if (id === 'shape') return Attr.shape(this.list(']', () => this.dimInList()));
    }
    switch (id) {
      case 'true': return Attr.bool(true);
      case 'false': return Attr.bool(false);
      case 'none': return Attr.none;
      case 'inf': return Attr.float(Infinity);
      case 'nan': return Attr.float(NaN);
      default:
        if (isDType(id)) return Attr.dtype(id);
        return this.fail(`unknown attribute value '${id}'`, at);
    }
  }
  private num(forceFloat: boolean): Attribute {
    const at = this.pos;
    const s = this.match(NUMBER);
    if (s === null) return this.fail(`expected a number, found ${this.found()}`);
    const isFloat = forceFloat || /[.eE]|inf|nan/.test(s);
    const v = s.endsWith('inf') ? (s.startsWith('-') ? -Infinity : Infinity) : s.endsWith('nan') ? NaN : Number(s);
    if (isFloat) return Attr.float(v);
    if (!Number.isSafeInteger(v)) this.fail(`integer ${s} is out of range`, at);
    return Attr.int(v);
  }
  private int(): number {
    const at = this.pos;
    const a = this.num(false);
    if (a.kind !== 'int') this.fail('expected an integer', at);
    return a.value;
  }
  private float(): number { return (this.num(true) as { value: number }).value; }

  private attrDict(): [string, Attribute][] {
    this.expect('{', "'{' (attributes)");
    const seen = new Set<string>();
    return this.list('}', () => {
      this.ws();
      const at = this.pos;
      const key = this.src[this.pos] === '"' ? this.str() : this.match(KEY) ?? this.fail(`expected an attribute name, found ${this.found()}`);
      if (seen.has(key)) this.fail(`attribute '${key}' is given twice`, at);
      seen.add(key);
      this.expect(':');
      return [key, this.attr()] as [string, Attribute];
    });
  }

  // ---- values, ops, regions ----

  private valueName(): string {
    return this.match(VALUE_NAME) ?? this.fail(`expected a value name (%N), found ${this.found()}`);
  }
  private define(name: string, v: Value, at: number): void {
    if (this.values.has(name)) this.fail(`redefinition of ${name}`, at);
    const ph = this.pending.get(name);
    if (ph) {
      if (!typeEq(ph.type, v.type)) this.fail(`${name} is defined with type ${String(v.type)} but was used as ${String(ph.type)}`, at);
      ph.replaceAllUsesWith(v);
      this.pending.delete(name);
    }
    this.values.set(name, v);
  }
  private use(name: string, type: Type, at: number): Value {
    const v = this.values.get(name) ?? this.pending.get(name);
    if (v) {
      if (!typeEq(v.type, type)) this.fail(`${name} has type ${String(v.type)} but the op signature says ${String(type)}`, at);
      return v;
    }
    const ph = new Placeholder(type, at, this.opName);
    this.pending.set(name, ph);
    return ph;
  }

  op(): Operation {
    this.ws();
    const start = this.pos;
    this.opName = null;
    this.expect('(', "'(' (op results)");
    const results = this.list(')', () => { this.ws(); const at = this.pos; return [this.valueName(), at] as const; });
    this.expect('=');
    this.ws();
    const nameAt = this.pos;
    const name = this.str();
    if (!/^[A-Za-z_]\w*\.[\w.]+$/.test(name)) this.fail(`op name "${name}" must look like "dialect.op"`, nameAt);
    this.opName = name;
    this.expect('(', "'(' (operands)");
    const operands = this.list(')', () => {
      this.ws();
      const at = this.pos;
      return this.eat('none') ? null : ([this.valueName(), at] as const);
    });
    const attrs = this.attrDict();
    const regions: Block[][] = [];
    if (this.eat('(')) regions.push(...this.list(')', () => this.region()));
    this.opName = name;  // regions parsed nested ops
    this.expect(':');
    this.expect('(', "'(' (operand types)");
    const inTypes = this.list(')', () => (this.eat('none') ? null : this.type()));
    this.expect('->');
    const outTypes = this.eat('(') ? this.list(')', () => this.type()) : [this.type()];
    if (inTypes.length !== operands.length) this.fail(`${operands.length} operand(s) but ${inTypes.length} operand type(s)`, start);
    if (outTypes.length !== results.length) this.fail(`${results.length} result(s) but ${outTypes.length} result type(s)`, start);
    const vals = operands.map((o, i) => {
      const t = inTypes[i];
      if ((o === null) !== (t === null)) this.fail(`operand ${i} and its type must both be 'none' or neither`, o?.[1] ?? start);
      return o === null ? null : this.use(o[0], t!, o[1]);
    });
    const op = new Operation(name, vals, attrs, outTypes, regions.length);
    regions.forEach((blocks, i) => { for (const b of blocks) op.regions[i].addBlock(b); });
    results.forEach(([n, at], i) => this.define(n, op.results[i], at));
    this.opName = null;
    return op;
  }

  private region(): Block[] {
    this.expect('{', "'{' (region)");
    const blocks: Block[] = [];
    const outer = this.opName;
    while (!this.eat('}')) {
      this.opName = outer;
      if (!this.eat('^')) this.fail(`expected a block label (^bb0:) or '}', found ${this.found()}`);
      if (!this.match(/[A-Za-z0-9_]+/y)) this.fail('expected a block label name');
      const block = new Block();
      if (this.eat('(')) {
        this.list(')', () => {
          this.ws();
          const at = this.pos;
          const n = this.valueName();
          this.expect(':');
          this.define(n, block.addArgument(this.type()), at);
        });
      }
      this.expect(':');
      while (!this.peek('^') && !this.peek('}')) {
        if (this.pos >= this.src.length) this.fail(`unterminated region`);
        block.append(this.op());
      }
      blocks.push(block);
    }
    this.opName = outer;
    return blocks;
  }

  program(): Program {
    const p = new Program();
    this.expect('{', "'{' (start of program)");
    while (!this.eat('}')) {
      if (this.pos >= this.src.length) this.fail("expected an op or '}' (end of program)");
      p.block.append(this.op());
    }
    this.end();
    for (const [name, ph] of this.pending) {
      this.opName = ph.opName;
      this.fail(`use of undefined value ${name}`, ph.at);
    }
    return p;
  }
}

/** Parses a program printed by printProgram; throws PirParseError with line:column. */
export function parseProgram(text: string): Program { return new Parser(text).program(); }

/** Parses one type (`tensor<?x128xf32>`, `vec[...]`, `i64`). */
export function parseType(text: string): Type {
  const p = new Parser(text);
  const t = p.type();
  p.end();
  return t;
}

/** Parses one attribute value (`i64[1, 2]`, `1.0`, `"s"`). */
export function parseAttribute(text: string): Attribute {
  const p = new Parser(text);
  const a = p.attr();
  p.end();
  return a;
}

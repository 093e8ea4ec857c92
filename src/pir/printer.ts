// The one text form of PIR (grammar in docs/pir.md). Every op prints generically:
//
//   (%2) = "pd_op.matmul" (%0, %1) {transpose_x:false, transpose_y:false} : (tensor<s0x784xf32>, tensor<784x10xf32>) -> tensor<s0x10xf32>
//
// Values are numbered %0, %1, ... over the whole program in text order (an op's results, then
// the block arguments and ops of its regions), so the output is stable and parse(print(p))
// prints the same text.
import { printAttrDict } from './attributes.js';
import { type Block, type Operation, type Program, type Region, textHooks, type Value } from './core.js';

/** Assigns %N names in text order. Names are given on first request for values outside the walk. */
export class Namer {
  private readonly names = new Map<Value, string>();
  private next = 0;

  /** Names every value of `p` in the order printProgram shows them. */
  static forProgram(p: Program): Namer {
    const n = new Namer();
    const visitBlock = (b: Block): void => {
      for (const a of b.args) n.name(a);
      for (const op of b.ops) visitOp(op);
    };
    const visitOp = (op: Operation): void => {
      for (const r of op.results) n.name(r);
      for (const r of op.regions) for (const b of r.blocks) visitBlock(b);
    };
    visitBlock(p.block);
    return n;
  }

  name(v: Value): string {
    let s = this.names.get(v);
    if (s === undefined) { s = `%${this.next++}`; this.names.set(v, s); }
    return s;
  }
}

export interface PrintOptions {
  /** Print region bodies as `{...}` (for one-line op descriptions in errors). */
  elideRegions?: boolean;
}

const INDENT = '  ';

/** Text of one op (with nested regions on following lines, indented from `indent`). */
export function printOp(op: Operation, namer: Namer = new Namer(), indent = '', opts: PrintOptions = {}): string {
  const results = op.results.map((r) => namer.name(r)).join(', ');
  const operands = op.operands.map((o) => (o.value ? namer.name(o.value) : 'none')).join(', ');
  let s = `(${results}) = ${JSON.stringify(op.name)} (${operands}) ${printAttrDict(op.attributes)}`;
  if (op.regions.length) {
    s += ` (${op.regions.map((r) => (opts.elideRegions ? (r.blocks.length ? '{...}' : '{}') : printRegion(r, namer, indent))).join(', ')})`;
  }
  const ins = op.operands.map((o) => (o.value ? String(o.value.type) : 'none')).join(', ');
  const outs = op.results.length === 1 ? String(op.results[0].type) : `(${op.results.map((r) => String(r.type)).join(', ')})`;
  return `${s} : (${ins}) -> ${outs}`;
}

function printRegion(r: Region, namer: Namer, indent: string): string {
  if (!r.blocks.length) return '{}';
  const lines: string[] = ['{'];
  r.blocks.forEach((b, i) => {
    const args = b.args.map((a) => `${namer.name(a)}: ${String(a.type)}`).join(', ');
    lines.push(`${indent}${INDENT}^bb${i}${b.args.length ? `(${args})` : ''}:`);
    for (const op of b.ops) lines.push(indent + INDENT + INDENT + printOp(op, namer, indent + INDENT + INDENT));
  });
  lines.push(`${indent}}`);
  return lines.join('\n');
}

/** The program's text: its top-level block in braces, one op per line, ending with a newline. */
export function printProgram(p: Program): string {
  const namer = Namer.forProgram(p);
  const lines = ['{'];
  for (const op of p.block.ops) lines.push(INDENT + printOp(op, namer, INDENT));
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** One-line description of `op` for messages, with value names as in the whole program's print. */
export function describeOp(op: Operation, namer?: Namer): string {
  return printOp(op, namer ?? new Namer(), '', { elideRegions: true });
}

textHooks.op = (op) => describeOp(op);
textHooks.program = printProgram;

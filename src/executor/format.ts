// The kernel-level text form of a LoweredProgram: what the native runner executes, one line per
// slot, buffer and instruction, so executor tests can be golden files (test/executor/golden).
//
//   slots
//     $0   %0          input #0       f32[2, 16]       strides [16, 1]  contiguous
//     $3   %3          buffer b0      f32[2, 32]       strides [32, 1]  256 B
//   buffers
//     b0   256 B  $3, $5 (reused)
//   instructions
//     #0   kernel  matmul ($0, $1) -> $3  {transpose_x=false, transpose_y=false}
//     #1   kernel  relu ($3) -> $4  inplace over $3  drop $3  (drop: slots cleared after it; release: buffers freed)
//
// Slots are `$N` (the runner's registers), graph values `%N`. Kernel attributes are decoded back
// to names when the op uses the default layout (declaration order, lists as [n, ...items]);
// ops with their own `encode` show the raw numbers. Deterministic: no addresses, no timings.
import { getOp, hasOp } from '../ops/registry.js';
import type { AttrSpec, OpDef } from '../ops/types.js';
import { DTYPE_CODE, type DType } from '../tensor/dtype.js';
import { DTYPE_SHORT } from '../pir/types.js';
import type { Instr, LoweredProgram, Slot } from './types.js';

const DTYPE_OF_CODE = new Map<number, DType>(Object.entries(DTYPE_CODE).map(([k, v]) => [v, k as DType]));

const num = (v: number): string => (Number.isNaN(v) ? 'None' : Object.is(v, -0) ? '-0' : String(v));

/**
 * `encoded` read back as `name=value` pairs following the default layout of `def`, or null when
 * the numbers do not fit it (a custom encode). List attributes may hold a single number instead
 * of a list; the one reading that consumes exactly every number is taken.
 */
export function decodeAttrs(def: OpDef, encoded: readonly number[]): string[] | null {
  if (def.encode) return null;
  const specs = def.attrs;
  const go = (i: number, at: number): string[] | null => {
    if (i === specs.length) return at === encoded.length ? [] : null;
    if (at >= encoded.length) return null;
    const a: AttrSpec = specs[i], v = encoded[at];
    const rest = (text: string, used: number): string[] | null => {
      const r = go(i + 1, at + used);
      return r && [`${a.name}=${text}`, ...r];
    };
    switch (a.type) {
      case 'bool': return Number.isNaN(v) ? rest('None', 1) : v === 0 || v === 1 ? rest(v ? 'true' : 'false', 1) : null;
      case 'dtype': return Number.isNaN(v) ? rest('None', 1) : DTYPE_OF_CODE.has(v) ? rest(DTYPE_OF_CODE.get(v)!, 1) : null;
      case 'str': return null;
      case 'int[]': case 'float[]': {
        if (Number.isInteger(v) && v >= 0 && at + 1 + v <= encoded.length) {
          const r = rest(`[${encoded.slice(at + 1, at + 1 + v).map(num).join(', ')}]`, 1 + v);
          if (r) return r;
        }
        return rest(num(v), 1);
      }
      default: return rest(num(v), 1);
    }
  };
  return go(0, 0);
}

const shapeText = (s: Slot): string => `${DTYPE_SHORT[s.dtype]}[${s.shape.join(', ')}]`;
const pad = (s: string, n: number): string => (s.length >= n ? `${s} ` : s + ' '.repeat(n - s.length));

function slotWhere(s: Slot, slots: readonly Slot[]): string {
  switch (s.kind) {
    case 'input': return `input #${s.index}`;
    case 'param': return `param #${s.index}${s.mutable ? ' (updated)' : ''}`;
    case 'buffer': return `buffer b${s.index}`;
    case 'view': return `view of $${s.root} @${s.relOffset}`;
    case 'host': return 'host result';
    case 'paramAlias': return `into param $${s.index} (${slots[s.index].label})`;
  }
}

function attrText(I: Instr): string {
  if (I.kind === 'view') {
    const n = I.attrs[0];
    return `shape [${I.attrs.slice(1, 1 + n).join(', ')}] strides [${I.attrs.slice(1 + n, 1 + 2 * n).join(', ')}] offset ${I.attrs[1 + 2 * n] >= 0 ? '+' : ''}${I.attrs[1 + 2 * n]}`;
  }
  if (I.kind !== 'kernel') return '';
  const def = hasOp(I.op) ? getOp(I.op) : null;
  const named = def ? decodeAttrs(def, I.attrs) : null;
  return named ? `{${named.join(', ')}}` : `encoded [${I.attrs.map(num).join(', ')}]`;
}

/** The kernel-level text of a lowered program (ends with a newline). */
export function formatLowered(p: LoweredProgram): string {
  const lines: string[] = [];
  const w = String(Math.max(p.slots.length, p.instrs.length) - 1).length + 2;
  lines.push(`lowered ${p.signature ? JSON.stringify(p.signature) : '(no signature)'}`);
  lines.push(`inputs ${p.inputSlots.map((s) => `$${s}`).join(', ') || '-'}; params ${p.paramSlots.map((s) => `$${s}`).join(', ') || '-'}; outputs ${p.outputSlots.map((s) => `$${s}`).join(', ') || '-'}`);
  lines.push('slots');
  const labelW = Math.max(4, ...p.slots.map((s) => s.label.length)) + 1;
  p.slots.forEach((s, i) => {
    const layout = s.kind === 'input' || s.kind === 'param' ? `  ${s.layout}` : '';
    const bytes = s.kind === 'buffer' || s.kind === 'host' ? `  ${s.bytes} B` : '';
    lines.push(`  ${pad(`$${i}`, w)}${pad(s.label, labelW)}${pad(slotWhere(s, p.slots), 18)}${pad(shapeText(s), 18)}strides [${s.strides.join(', ')}]${layout}${bytes}`);
  });
  lines.push('buffers');
  p.buffers.forEach((bytes, b) => {
    const users = p.slots.map((s, i) => ({ s, i })).filter(({ s }) => s.kind === 'buffer' && s.index === b).map(({ i }) => `$${i}`);
    lines.push(`  ${pad(`b${b}`, w)}${pad(`${bytes} B`, 10)}${users.join(', ')}${users.length > 1 ? ' (reused)' : ''}`);
  });
  lines.push('instructions');
  p.instrs.forEach((I, k) => {
    const out0 = I.outs.length ? p.slots[I.outs[0]] : null, in0 = I.ins.length ? p.slots[I.ins[0]] : null;
    const inplace = I.kind === 'kernel' && out0 && in0 && out0.kind === 'buffer' && in0.kind === 'buffer' && out0.index === in0.index ? `  inplace over $${I.ins[0]}` : '';
    const direct = I.outs.some((o) => p.slots[o].kind === 'paramAlias') ? '  writes param' : '';
    const head = I.kind === 'host' ? `${I.op} fn#${I.fn}` : I.op;
    const attrs = attrText(I);
    const free = (I.clears.length ? `  drop ${I.clears.map((s) => `$${s}`).join(', ')}` : '') + (I.releases.length ? `  release ${I.releases.map((b) => `b${b}`).join(', ')}` : '');
    lines.push(`  ${pad(`#${k}`, w)}${pad(I.kind, 7)}${head} (${I.ins.map((s) => `$${s}`).join(', ')}) -> ${I.outs.map((s) => `$${s}`).join(', ') || '()'}` +
      `${inplace}${direct}${attrs ? `  ${attrs}` : ''}${free}`);
  });
  const st = p.stats;
  lines.push(`stats instructions=${st.instructions} kernels=${st.kernels} views=${st.views} host=${st.hostCalls} copies=${st.copies} ` +
    `buffers=${st.buffers} bufferBytes=${st.bufferBytes} intermediateBytes=${st.intermediateBytes} peakBytes=${st.peakBytes} ` +
    `inplace=${st.inplace} reused=${st.reused} directWrites=${st.directWrites}`);
  return `${lines.join('\n')}\n`;
}

// Seeded mutation fuzzing of inference model files, shared by test/jit/bad_files.test.ts (a few
// hundred cases) and bench/fuzz_models.ts (tens of thousands). Three kinds of base files: a
// saved `.pir` model (text + .pdiparams), and a Paddle `.pdmodel` built with the schema (+ its
// .pdiparams). Mutations: truncation at a random offset, byte/char flips, huge declared sizes and
// dims, dtype and shape mismatches with the parameters, unknown ops, cyclic and non-SSA
// programs, wrong version headers. Every case must load and run, or throw an Error whose message
// names one of the model's files; anything else (another exception, a crash, a hang, a huge
// allocation) is a finding.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paddle } from '../../src/paddle.js';
import { decodeProgramDesc, encodeProgramDesc, PdAttrType, type PdProgramDesc } from '../../src/jit/pdmodel/schema.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { PdModelBuilder } from './pdmodel_builder.js';

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 0x7fffffff) % n;
  };
}

export interface BaseModels { pirText: string; pirParams: Buffer; pdModel: Buffer; pdParams: Buffer }

/** Saves the base models into `dir` (a .pir Linear+ReLU model and a small .pdmodel CNN head). */
export function makeBaseModels(dir: string): BaseModels {
  paddle.seed(5);
  const fc = new paddle.nn.Linear(4, 3);
  const base = join(dir, 'fuzz_base');
  paddle.jit.save((x: Tensor) => paddle.nn.functional.relu(fc.call(x)), base, { input_spec: [new paddle.jit.InputSpec([null, 4], 'float32', 'x')] });
  const b = new PdModelBuilder();
  b.feed('x', [-1, 2, 4, 4]);
  b.param('conv.w', paddle.randn([3, 2, 3, 3]));
  b.param('conv.b', paddle.randn([3]));
  b.param('fc.w', paddle.randn([3, 5]));
  b.op('conv2d', { Input: 'x', Filter: 'conv.w' }, { Output: 'c' }, { strides: [1, 1], paddings: [1, 1], dilations: [1, 1], groups: 1 });
  b.op('elementwise_add', { X: 'c', Y: 'conv.b' }, { Out: 'cb' }, { axis: 1 });
  b.op('relu', { X: 'cb' }, { Out: 'r' });
  b.op('pool2d', { X: 'r' }, { Out: 'p' }, { pooling_type: 'avg', ksize: [1, 1], global_pooling: true });
  b.op('flatten_contiguous_range', { X: 'p' }, { Out: 'f' }, { start_axis: 1, stop_axis: -1 });
  b.op('matmul_v2', { X: 'f', Y: 'fc.w' }, { Out: 'm' }, { trans_x: false, trans_y: false });
  b.op('softmax', { X: 'm' }, { Out: 'y' }, { axis: -1 });
  b.fetch('y');
  const { model, params } = b.encode();
  return {
    pirText: readFileSync(`${base}.pir`, 'utf8'),
    pirParams: readFileSync(`${base}.pdiparams`),
    pdModel: Buffer.from(model), pdParams: Buffer.from(params),
  };
}

type R = (n: number) => number;
const HUGE = [2 ** 31, 2 ** 40, 2 ** 53, 1e15, 4294967295, 999999999999];

/** A mutated .pdiparams stream: truncation, flips, huge LoD/desc sizes and dims, dtype changes, trailing bytes. */
function mutateParams(p: Buffer, r: R): { bytes: Buffer; what: string } {
  const b = Buffer.from(p);
  switch (r(7)) {
    case 0: { const at = r(b.length); return { bytes: b.subarray(0, at), what: `params truncated at ${at}` }; }
    case 1: { const at = r(b.length); b[at] ^= 1 << r(8); return { bytes: b, what: `params bit flip at ${at}` }; }
    case 2: b.writeBigUInt64LE(BigInt(1 + r(20)), 4); b.writeBigUInt64LE(BigInt(HUGE[r(HUGE.length)]), 12); return { bytes: b, what: 'params huge LoD' };
    case 3: b.writeInt32LE([0x7fffffff, -1, 4097, 1 << 20][r(4)], 16); return { bytes: b, what: 'params huge TensorDesc size' };
    case 4: b[21] = [0, 1, 2, 3, 4, 6, 7, 19, 22, 23, 24, 99][r(12)]; return { bytes: b, what: 'params dtype change' };
    case 5: { // a dim varint replaced by a 10-byte huge value (shifts the stream)
      const huge = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
      return { bytes: Buffer.concat([b.subarray(0, 23), huge, b.subarray(24)]), what: 'params huge dim' };
    }
    default: return { bytes: Buffer.concat([b, Buffer.alloc(1 + r(9), r(256))]), what: 'params trailing bytes' };
  }
}

/** A mutated .pir text: truncation, char flips, huge dims, unknown ops, cycles, redefinitions, versions, dtypes. */
function mutatePir(text: string, r: R): { text: string; what: string } {
  const lines = text.split('\n');
  const opLines = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s+\(%/.test(l) || /^\s+\(\) =/.test(l)).map(([, i]) => i);
  const pick = () => opLines[r(opLines.length)];
  switch (r(9)) {
    case 0: { const at = r(text.length); return { text: text.slice(0, at), what: `pir truncated at ${at}` }; }
    case 1: { const at = r(text.length); return { text: text.slice(0, at) + String.fromCharCode(32 + r(95)) + text.slice(at + 1), what: `pir char flip at ${at}` }; }
    case 2: { // a number becomes huge (in the header or the program)
      const nums = [...text.matchAll(/\d+/g)];
      const m = nums[r(nums.length)];
      return { text: text.slice(0, m.index) + String(HUGE[r(HUGE.length)]) + text.slice(m.index! + m[0].length), what: 'pir huge number' };
    }
    case 3: { const i = pick(); lines[i] = lines[i].replace(/"pd_op\.[a-z_0-9]+"|"builtin\.[a-z_]+"/, '"pd_op.no_such_op"'); return { text: lines.join('\n'), what: 'pir unknown op' }; }
    case 4: { // swap two op lines: uses before definitions (a cycle when both use each other)
      const i = pick(), j = pick();
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return { text: lines.join('\n'), what: 'pir swapped ops' };
    }
    case 5: { const i = pick(); lines.splice(i, 0, lines[i]); return { text: lines.join('\n'), what: 'pir duplicated op (non-SSA)' }; }
    case 6: { const i = pick(); lines.splice(i, 1); return { text: lines.join('\n'), what: 'pir deleted op' }; }
    case 7: return { text: text.replace(/"version":\d+/, `"version":${[0, 2, -1, 1e9][r(4)]}`), what: 'pir version' };
    default: {
      const dts = ['f32', 'f64', 'i64', 'f16', 'i32', 'bf16'];
      return { text: text.replace(/x(f32)>/g, () => (r(3) === 0 ? `x${dts[r(dts.length)]}>` : 'xf32>')), what: 'pir dtype change' };
    }
  }
}

/** A structurally mutated ProgramDesc (decoded, edited, re-encoded), or raw byte damage. */
function mutatePdmodel(bytes: Buffer, r: R): { bytes: Buffer; what: string } {
  const kind = r(12);
  if (kind === 0) { const at = r(bytes.length); return { bytes: bytes.subarray(0, at), what: `pdmodel truncated at ${at}` }; }
  if (kind === 1) { const b = Buffer.from(bytes); const at = r(b.length); b[at] ^= 1 << r(8); return { bytes: b, what: `pdmodel bit flip at ${at}` }; }
  if (kind === 2) { const b = Buffer.from(bytes); const at = r(b.length); b[at] = r(256); return { bytes: b, what: `pdmodel byte at ${at}` }; }
  const p: PdProgramDesc = decodeProgramDesc(bytes);
  const blk = p.blocks![0];
  const ops = blk.ops!, vars = blk.vars!;
  const body = ops.map((o, i) => [o, i] as const).filter(([o]) => o.type !== 'feed' && o.type !== 'fetch').map(([, i]) => i);
  const op = ops[body[r(body.length)]];
  const tensorVars = vars.filter((v) => v.type.lod_tensor);
  const v = tensorVars[r(tensorVars.length)];
  let what = '';
  switch (kind) {
    case 3: op.type = ['no_such_op', 'while', 'conditional_block', 'roi_align', ''][r(5)]; what = `pdmodel op type '${op.type}'`; break;
    case 4: { const i = body[r(body.length)], j = body[r(body.length)]; [ops[i], ops[j]] = [ops[j], ops[i]]; what = 'pdmodel swapped ops (use before definition)'; break; }
    case 5: { // an op reads its own output (a cycle) or writes its input (non-SSA)
      const o = op.outputs![0].arguments![0];
      if (r(2)) { op.inputs![0].arguments = [o]; what = 'pdmodel op reads its own output'; } else { op.outputs![0].arguments = [op.inputs![0].arguments![0]]; what = 'pdmodel op overwrites its input'; }
      break;
    }
    case 6: { const d = (v.type.lod_tensor!.tensor.dims ??= []); if (d.length) d[r(d.length)] = [HUGE[r(HUGE.length)], -7, 0][r(3)]; else d.push(2 ** 40); what = `pdmodel huge/bad dim of ${v.name}`; break; }
    case 7: v.type.lod_tensor!.tensor.data_type = [0, 1, 2, 3, 4, 6, 19, 23, 99][r(9)]; what = `pdmodel dtype of ${v.name}`; break;
    case 8: { const d = (v.type.lod_tensor!.tensor.dims ??= []); d.push(1 + r(3)); what = `pdmodel rank of ${v.name}`; break; }
    case 9: p.version = { version: [-1, 5, 999, 4_000_000, 2 ** 53][r(5)] }; what = `pdmodel version ${p.version.version}`; break;
    case 10: { // an attribute changes type or value
      const a = op.attrs?.[r(op.attrs.length)];
      if (a) {
        if (r(2)) { a.type = r(18); what = `pdmodel attr ${a.name} type ${a.type}`; } else { a.ints = [HUGE[r(HUGE.length)] | 0, -5]; a.i = -(2 ** 31); what = `pdmodel attr ${a.name} values`; }
        if (a.type === PdAttrType.INTS && r(2)) a.ints = [];
      } else what = 'pdmodel no attr';
      break;
    }
    default: { // feed/fetch bookkeeping: a duplicated col, a missing variable, a deleted var
      const c = r(3);
      if (c === 0) { const f = ops.find((o) => o.type === 'fetch')!; f.attrs![0].i = 3; what = 'pdmodel fetch col gap'; }
      else if (c === 1) { vars.splice(vars.indexOf(v), 1); what = `pdmodel var ${v.name} removed`; }
      else { ops.splice(body[r(body.length)], 1); what = 'pdmodel op removed'; }
    }
  }
  let out: Uint8Array;
  try { out = encodeProgramDesc(p); } catch { out = bytes; what += ' (unencodable: original)'; }
  return { bytes: Buffer.from(out), what };
}

export interface FuzzStats { cases: number; ran: number; rejected: number; findings: string[]; byKind: Record<string, number> }

const inputFor = (m: { header: { inputs: readonly { dtype: string; shape: readonly number[] }[] } }): Tensor[] | null => {
  const ins = m.header.inputs.map((i) => i.shape.map((d) => (d === -1 ? 2 : d)));
  // refuse to feed an absurd input the mutated header asks for; loading it was the test
  if (ins.some((s) => s.reduce((a, b) => a * b, 1) > 1 << 20)) return null;
  return m.header.inputs.map((info, k) => paddle.ones(ins[k], info.dtype as 'float32'));
};

/** Runs `n` seeded cases in `dir`; every failure must be an Error naming one of the case's files. */
export function fuzzModels(dir: string, base: BaseModels, n: number, seed: number): FuzzStats {
  const r = rng(seed);
  const stats: FuzzStats = { cases: 0, ran: 0, rejected: 0, findings: [], byKind: {} };
  for (let i = 0; i < n; i++) {
    const prefix = join(dir, `f${seed}_${i % 64}`);
    let what: string, prog: string;
    const kind = r(3);
    if (kind === 0) {
      const both = r(3);
      const t = both !== 1 ? mutatePir(base.pirText, r) : { text: base.pirText, what: '' };
      const p = both !== 0 ? mutateParams(base.pirParams, r) : { bytes: base.pirParams, what: '' };
      what = [t.what, p.what].filter(Boolean).join(' + ');
      prog = `${prefix}.pir`;
      writeFileSync(prog, t.text);
      writeFileSync(`${prefix}.pdiparams`, p.bytes);
    } else {
      const which = r(3);
      const m = which !== 1 ? mutatePdmodel(base.pdModel, r) : { bytes: base.pdModel, what: '' };
      const p = which !== 0 ? mutateParams(base.pdParams, r) : { bytes: base.pdParams, what: '' };
      what = [m.what, p.what].filter(Boolean).join(' + ');
      prog = `${prefix}.pdmodel`;
      writeFileSync(prog, m.bytes);
      writeFileSync(`${prefix}.pdiparams`, p.bytes);
    }
    // the mutation's kind, without offsets, names or values
    const label = what.split(' + ').map((w) => w.replace(/ (at|of) .*$/, '').replace(/ (type|version|attr|var) \S.*$/, ' $1').replace(/ -?\d.*$/, '')).join(' + ');
    stats.byKind[label] = (stats.byKind[label] ?? 0) + 1;
    stats.cases++;
    let layer: ReturnType<typeof paddle.jit.load> | null = null;
    try {
      layer = paddle.jit.load(prog);
      const ins = inputFor(layer);
      try {
        if (ins) for (const o of layer.run(ins)) o.dispose();
      } finally {
        for (const t of ins ?? []) t.dispose();
      }
      stats.ran++;
    } catch (e) {
      stats.rejected++;
      const msg = e instanceof Error ? e.message : String(e);
      if (!(e instanceof Error) || !(msg.includes(prog) || msg.includes(`${prefix}.pdiparams`))) {
        stats.findings.push(`case ${i} (seed ${seed}, ${what}): ${e instanceof Error ? e.name : typeof e}: ${msg.slice(0, 300)}`);
      }
    } finally {
      layer?.dispose();
    }
  }
  return stats;
}

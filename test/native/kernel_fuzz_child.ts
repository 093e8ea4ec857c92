// Child process of kernel_fuzz.test.ts: calls every native kernel with random tensors (any
// dtype, rank, size, strided views), random output tensors and random attribute lists, straight
// through native.run — no TS validation in front. Kernels must answer bad input with an error,
// never a crash. Before each call the case is written to a file, so a crash names its case.
import { writeFileSync } from 'node:fs';
import { native } from '../../src/native.js';
import { compile } from '../../src/executor/index.js';
import { encodeProgram } from '../../src/executor/program.js';
import { Tensor } from '../../src/tensor/tensor.js';

const [seedArg, perKernelArg, caseFile] = process.argv.slice(2);
let state = Number(seedArg) >>> 0 || 1;
const rnd = (): number => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4294967296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

const DTYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8];   // every dtype code the addon knows (invalid ones are tested too)
const ATTR_POOL = [0, 1, 2, 3, -1, -2, 4, 5, 7, 0.5, -0.5, 1e9, -1e9, 2 ** 40, NaN, Infinity, -Infinity, 1e-7, 64, 100];

function randomShape(): number[] {
  const rank = int(0, 4);
  return Array.from({ length: rank }, () => pick([0, 1, 1, 2, 3, 4, 5, 7]));
}

/** A tensor handle: fresh, or a (possibly out-of-bounds, which must be refused) view of one. */
function randomTensor(live: number[]): number {
  const dtype = rnd() < 0.02 ? 99 : pick(DTYPES);
  const shape = randomShape();
  let h: number;
  try { h = native.empty(dtype, shape); } catch { return native.empty(0, [1]); }
  live.push(h);
  if (rnd() < 0.3) {
    const vshape = randomShape();
    const strides = vshape.map(() => pick([0, 1, 2, 3, -1, 5]));
    try {
      const v = native.view(h, vshape, strides, int(0, 6));
      live.push(v);
      return v;
    } catch { /* refused view: use the base */ }
  }
  return h;
}

const names = native.kernelNames();
const perKernel = Number(perKernelArg) || 40;
let calls = 0, refused = 0;
for (const name of names) {
  const id = native.kernelId(name);
  for (let c = 0; c < perKernel; c++) {
    const live: number[] = [];
    // Half the cases are coherent (one dtype, inputs and outputs of one shape, small attributes),
    // so calls get past the first checks and exercise the deeper ones.
    const coherent = rnd() < 0.5;
    const dt = pick([1, 1, 1, 2, 3, 4, 0, 7, 8]), base = randomShape();
    const make = (): number => {
      if (!coherent) return randomTensor(live);
      const shape = rnd() < 0.8 ? base : base.map((d) => (rnd() < 0.5 ? 1 : d));
      const h = native.empty(dt, shape);
      live.push(h);
      return h;
    };
    const ins = Array.from({ length: int(coherent ? 1 : 0, 4) }, make);
    const outs = Array.from({ length: int(coherent ? 1 : 0, 3) }, make);
    if (rnd() < 0.5 && ins.length) outs[0] = ins[0];   // aliasing an input as the output
    const attrs = Array.from({ length: int(0, 14) }, () => (coherent && rnd() < 0.7 ? int(-1, 3) : pick(ATTR_POOL)));
    writeFileSync(caseFile, JSON.stringify({ name, ins: ins.map((h) => native.meta(h)), outs: outs.map((h) => native.meta(h)), attrs }));
    calls++;
    try { native.run(id, ins, outs, attrs); } catch { refused++; }
    native.releaseMany(live);
  }
}
console.log(JSON.stringify({ kernels: names.length, calls, refused }));

// The program runner: random wire-format programs (programCreate must refuse what it cannot
// run), and random runs of the ones it accepts.
let programs = 0, accepted = 0;
const ints = (n: number, lo: number, hi: number) => Int32Array.from({ length: n }, () => int(lo, hi));
for (let c = 0; c < perKernel * 20; c++) {
  const nSlots = int(0, 6), nInstr = int(0, 5), nBuf = int(0, 3);
  const desc = {
    nInputs: int(0, 3), nParams: int(0, 2), nHost: int(0, 1),
    slots: ints(nSlots * 7 + (rnd() < 0.1 ? 1 : 0), -1, 6),
    dims: Float64Array.from({ length: int(0, 12) }, () => pick([0, 1, 2, 3, 4, -1, 1e12, NaN])),
    labels: Array.from({ length: nSlots }, (_, i) => `s${i}`),
    instrs: Int32Array.from({ length: nInstr * 10 }, (_, i) => (i % 10 === 1 ? int(-1, names.length) : int(-1, 8))),
    args: ints(int(0, 16), -4, 8),
    attrs: Float64Array.from({ length: int(0, 10) }, () => pick(ATTR_POOL)),
    names: Array.from({ length: nInstr }, (_, i) => `i${i}`),
    buffers: Float64Array.from({ length: nBuf }, () => pick([0, 4, 16, 64, -8, 1e15])),
    outputs: ints(int(0, 3), -1, 6),
  };
  writeFileSync(caseFile, JSON.stringify({ program: { ...desc, slots: [...desc.slots], instrs: [...desc.instrs], args: [...desc.args], outputs: [...desc.outputs] } }));
  programs++;
  let id: number;
  try { id = native.programCreate(desc); } catch { continue; }
  accepted++;
  const live: number[] = [];
  const handles = (n: number) => Int32Array.from({ length: n }, () => randomTensor(live));
  try {
    let r = native.programRun(id, handles(desc.nInputs), handles(desc.nParams), new Int32Array(desc.outputs.length));
    if (r !== 0) native.programAbort(r.state);
  } catch { /* refused run */ }
  native.programFree(id);
  native.releaseMany(live);
}
console.log(JSON.stringify({ programs, accepted }));

// Mutations of valid programs: a small graph (views, kernels, an inplace-able chain) lowered
// for real, then one or two fields of its wire form changed at random.
const g = {
  values: [
    { id: 0, dtype: 'float32', shape: [2, 3] }, { id: 1, dtype: 'float32', shape: [3] }, { id: 2, dtype: 'float32', shape: [2, 3] },
    { id: 3, dtype: 'float32', shape: [3, 2] }, { id: 4, dtype: 'float32', shape: [2, 2] }, { id: 5, dtype: 'float32', shape: [2, 2] },
  ],
  inputs: [0, 1], params: [],
  nodes: [
    { op: 'add', inputs: [0, 1], outputs: [2], attrs: {} },
    { op: 'transpose', inputs: [2], outputs: [3], attrs: { perm: [1, 0] } },
    { op: 'matmul', inputs: [2, 3], outputs: [4], attrs: {} },
    { op: 'relu', inputs: [4], outputs: [5], attrs: {} },
  ],
  outputs: [5, 3],
} as never;
const x = new Tensor(native.empty(1, [2, 3]), 'float32', [2, 3]), y = new Tensor(native.empty(1, [3]), 'float32', [3]);
const valid = encodeProgram(compile(g).plan([x, y]));
let mutants = 0, mutantsAccepted = 0;
const fields = ['slots', 'dims', 'instrs', 'args', 'attrs', 'buffers', 'outputs'] as const;
for (let c = 0; c < perKernel * 20; c++) {
  const d = { ...valid, slots: valid.slots.slice(), dims: valid.dims.slice(), instrs: valid.instrs.slice(), args: valid.args.slice(), attrs: valid.attrs.slice(), buffers: valid.buffers.slice(), outputs: valid.outputs.slice() };
  for (let k = int(1, 2); k > 0; k--) {
    const f = pick(fields);
    const arr = d[f] as Int32Array | Float64Array;
    if (!arr.length) continue;
    arr[int(0, arr.length - 1)] = f === 'dims' || f === 'attrs' || f === 'buffers' ? pick([...ATTR_POOL, 6, 24]) : int(-3, 12);
  }
  writeFileSync(caseFile, JSON.stringify({ mutant: Object.fromEntries(fields.map((f) => [f, [...d[f]]])) }));
  mutants++;
  let id: number;
  try { id = native.programCreate(d); } catch { continue; }
  mutantsAccepted++;
  const live: number[] = [];
  try {
    const ins = Int32Array.from([native.empty(1, [2, 3]), native.empty(1, [3])]);
    live.push(...ins);
    const r = native.programRun(id, ins, new Int32Array(0), new Int32Array(d.outputs.length));
    if (r !== 0) native.programAbort(r.state);
  } catch { /* refused run */ }
  native.programFree(id);
  native.releaseMany(live);
}
console.log(JSON.stringify({ mutants, mutantsAccepted }));

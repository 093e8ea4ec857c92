// Host-driven control flow: pd_op.if and pd_op.while become host calls of the native run.
// Each region's block is compiled once (lazily) as a program of its own, whose feeds are the
// block's arguments and the op's implicit captures and whose fetches are what the block yields;
// the host function picks the branch, or iterates the body while the yielded condition holds.
// A first version: the native runner cannot run regions itself, so every branch or iteration
// costs a suspension and one native run of the region's program.
import { native } from '../native.js';
import { DTYPE_CODE } from '../tensor/dtype.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { Builder, type Block, capturedValues, IF, type Operation, Program, type Value, WHILE, yieldedValues } from '../pir/index.js';
import { compile, type Executable } from './executable.js';
import { fromPir } from './from_pir.js';
import { setRegionLowerer } from './region_hook.js';
import type { HostFn } from './types.js';

/** Counters tests read: region programs compiled and region runs (branches taken, loop iterations). */
export const runRegionCounters = { compiled: 0, runs: 0 };

/** A block as a standalone program: feeds in_<i> for `params`, fetches out_<i> for its yields. */
export function blockProgram(block: Block, params: readonly Value[]): Program {
  const p = new Program();
  const b = new Builder(p);
  const mapping = new Map<Value, Value>();
  params.forEach((v, i) => mapping.set(v, b.data(`in_${i}`, v.shape, v.dtype)));
  for (const op of block.ops) {
    if (op.name === 'builtin.yield') continue;
    if (op.name === 'builtin.parameter' || op.name === 'pd_op.data')
      throw new Error(`control flow: "${op.name}" inside a region is not supported (hoist it before the region op)`);
    p.block.append(op.clone(mapping));
  }
  (yieldedValues(block) ?? []).forEach((v, i) => b.fetch(mapping.get(v!) ?? v!, `out_${i}`, i));
  return p;
}

/** A compiled region program, built on first use. */
class RegionRunner {
  private exe: Executable | null = null;
  private constants: Tensor[] = [];
  private order: number[] = [];
  constructor(private readonly block: Block, private readonly params: readonly Value[]) {}

  run(args: readonly Tensor[]): Tensor[] {
    if (!this.exe) {
      const g = untracked(() => fromPir(blockProgram(this.block, this.params)));
      for (const c of g.constants) c._adoptByGC();
      this.constants = g.constants;
      this.order = g.feeds.map((n) => Number(n.slice(3)));
      this.exe = compile(g.graph, { hostFns: g.hostFns });
      runRegionCounters.compiled++;
    }
    runRegionCounters.runs++;
    const outs = this.exe.run(this.order.map((i) => args[i]), this.constants);
    // A region that yields one of its inputs unchanged must still hand back a tensor of its own.
    return outs.map((o) => (args.some((a) => native.sameStorage(a.h('control flow'), o.h('control flow'))) ? copyOf(o, true) : o));
  }
}

/** A contiguous copy of t (disposing t when `consume`). */
function copyOf(t: Tensor, consume = false): Tensor {
  const c = untracked(() => new Tensor(native.empty(DTYPE_CODE[t.dtype], t.shape), t.dtype, [...t.shape]));
  native.run(native.kernelId('contiguous'), [t.h('control flow')], [c.handle], []);
  if (consume) t.dispose();
  return c;
}

const truthy = (t: Tensor): boolean => {
  const v = t.dataSync()[0];
  return typeof v === 'bigint' ? v !== 0n : Boolean(v);
};

function lowerIf(op: Operation): { inputs: Value[]; fn: HostFn } {
  const caps = capturedValues(op);
  const branches = op.regions.map((r) => new RegionRunner(r.blocks[0], caps));
  return {
    inputs: [op.operand(0)!, ...caps],
    fn: ([cond, ...rest]) => branches[truthy(cond) ? 0 : 1].run(rest),
  };
}

function lowerWhile(op: Operation): { inputs: Value[]; fn: HostFn } {
  const caps = capturedValues(op);
  const body = op.regions[0].blocks[0];
  const n = op.numOperands - 1;
  const runner = new RegionRunner(body, [...body.args, ...caps]);
  return {
    inputs: [...op.operandValues() as Value[], ...caps],
    fn: ([cond, ...rest]) => {
      const inits = rest.slice(0, n), captured = rest.slice(n);
      let vars = inits;
      let owned = false;
      let go = truthy(cond);
      while (go) {
        const outs = runner.run([...vars, ...captured]);
        go = truthy(outs[0]);
        outs[0].dispose();
        if (owned) for (const v of vars) v.dispose();
        vars = outs.slice(1);
        owned = true;
      }
      // The host call disposes its arguments: loop values that never changed are copied out.
      return owned ? vars : vars.map((v) => copyOf(v));
    },
  };
}

setRegionLowerer((op) => (op.name === IF ? lowerIf(op) : op.name === WHILE ? lowerWhile(op) : null));

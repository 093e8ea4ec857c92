// Encodes a LoweredProgram into the native runner's wire format (native/src/program_format.h).
import { native, type NativeProgramDesc } from '../native.js';
import { DTYPE_CODE } from '../tensor/dtype.js';
import { LAYOUT_CODE, type LoweredProgram, OPCODE, SLOT_KIND_CODE } from './types.js';

export interface EncodeOptions {
  /**
   * The bound parameters' contents never change between runs (an inference model's weights):
   * kernels may cache derived forms of them, such as a GEMM weight packed once (const_cache.h).
   */
  readonly constantParams?: boolean;
}

export function encodeProgram(p: LoweredProgram, opts: EncodeOptions = {}): NativeProgramDesc {
  const slots = new Int32Array(p.slots.length * 7);
  const dims: number[] = [];
  p.slots.forEach((s, i) => {
    const start = dims.length;
    dims.push(...s.shape);
    if (s.layout === 'exact') dims.push(...s.strides);
    slots.set([SLOT_KIND_CODE[s.kind], s.index, DTYPE_CODE[s.dtype], s.shape.length, start, LAYOUT_CODE[s.layout], s.mutable ? 1 : opts.constantParams && s.kind === 'param' ? 2 : 0], i * 7);
  });
  const instrs = new Int32Array(p.instrs.length * 10);
  const args: number[] = [], attrs: number[] = [];
  p.instrs.forEach((I, k) => {
    const inStart = args.length;
    args.push(...I.ins);
    const outStart = args.length;
    args.push(...I.outs);
    const attrStart = attrs.length;
    attrs.push(...I.attrs);
    const freeStart = args.length;
    args.push(...I.clears, ...I.releases.map((b) => -b - 1));
    instrs.set([OPCODE[I.kind], I.fn, inStart, I.ins.length, outStart, I.outs.length, attrStart, I.attrs.length, freeStart, I.clears.length + I.releases.length], k * 10);
  });
  return {
    nInputs: p.inputSlots.length, nParams: p.paramSlots.length, nHost: p.hostFns.length,
    slots, dims: Float64Array.from(dims), labels: p.slots.map((s) => s.label),
    instrs, args: Int32Array.from(args), attrs: Float64Array.from(attrs), names: p.instrs.map((I) => I.op),
    buffers: Float64Array.from(p.buffers), outputs: Int32Array.from(p.outputSlots),
  };
}

/** Creates the native program; returns its id (free with native.programFree). */
export const createProgram = (p: LoweredProgram, opts: EncodeOptions = {}): number => native.programCreate(encodeProgram(p, opts));

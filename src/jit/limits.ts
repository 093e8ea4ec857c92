// Size limits every loaded model program is checked against (.pir and .pdmodel alike): a value
// whose static shape is huge comes from a damaged or hostile file, and is refused before the
// executor would try to allocate it.
import type { Operation, Program as PirProgram, TensorType } from '../pir/index.js';
import { ITEMSIZE } from '../tensor/dtype.js';
import { ModelFileError } from './pdiparams.js';

/** No value of a loaded program may be larger than this (a hostile shape must not reach the allocator). */
export const MAX_VALUE_BYTES = 2 ** 32;

/** Refuses a program with a statically huge value (a damaged or hostile `full` / reshape / parameter shape). */
export function checkValueSizes(program: PirProgram, file: string): void {
  const walk = (ops: readonly Operation[]): void => {
    for (const op of ops) {
      for (const r of op.results) {
        const t = r.type as TensorType;
        if (t.kind !== 'tensor' || !t.isStatic) continue;
        const bytes = (t.shape as number[]).reduce((a, d) => a * d, 1) * (ITEMSIZE[t.dtype] ?? 8);
        if (bytes > MAX_VALUE_BYTES) throw new ModelFileError(`${file}: "${op.name}" produces ${String(t)}, ${bytes} bytes (more than the ${MAX_VALUE_BYTES} a model value may have)`);
      }
      for (const reg of op.regions) for (const b of reg.blocks) walk(b.ops);
    }
  };
  walk(program.block.ops);
}

// Exception unwinding over the simulated frames (CPython's exception-table lookup): which
// handler catches an exception raised at the current instruction, the exception being handled
// (sys.exc_info) for a bare `raise`, and the layout of the trace-tree child that continues at a
// handler when a concrete step raises at run time (sot/trace_tree.ts Exit.unwind).
import type { Template } from '../../../sot/trace_tree.js';
import { ConstVar, type Variable } from '../../../sot/variables.js';
import type { Instruction } from '../bytecode/decode.js';
import type { ExcHandler } from './code.js';
import type { Frame } from './frame.js';
import type { Translator } from './translator.js';
import { type FrameLayout, type Layout, LayoutBuilder, type LayoutValue, type SegmentTemplates } from './segment.js';

export interface Catch {
  /** Index of the catching frame in the frame list. */
  readonly frame: number;
  readonly handler: ExcHandler;
  /** The instruction of that frame the exception is raised at (a CALL for outer frames). */
  readonly at: Instruction;
}

/**
 * The handler catching an exception raised at instruction `innerIndex` of the innermost frame:
 * that frame's table first, then each caller's at the call that inlined the next frame.
 */
export function findHandler(frames: readonly Frame[], innerIndex: number): Catch | null {
  for (let fi = frames.length - 1; fi >= 0; fi--) {
    const f = frames[fi];
    // an outer frame stands after the instruction whose handler inlined the next frame
    const at = f.code.instructions[fi === frames.length - 1 ? innerIndex : f.ip - 1];
    if (!at) continue;
    const handler = f.code.handlerAt(at.offset);
    if (handler) return { frame: fi, handler, at };
  }
  return null;
}

/** The exception being handled (what a bare `raise` re-raises): the innermost frame's, else its callers'. */
export function currentException(tx: Translator): Variable | null {
  for (let fi = tx.frames.length - 1; fi >= 0; fi--) {
    const e = tx.frames[fi].excInfo;
    if (e) return e;
  }
  return null;
}

/** The exception being handled in frames[0..last] (innermost first). */
function handledIn(frames: readonly Frame[], last: number): Variable | null {
  for (let fi = last; fi >= 0; fi--) {
    const e = frames[fi].excInfo;
    if (e) return e;
  }
  return null;
}

/**
 * 3.10: the previous exc_info a block-stack handler pushes (before the stack is cut): what the
 * EXCEPT_HANDLER block unwound on the way saved (its type slot, the value or None), else the
 * exception being handled in the catching frame or its callers.
 */
function previousException(frames: readonly Frame[], c: Catch): Variable | null {
  const at = c.handler.triples?.restoreAt ?? -1;
  if (at >= 0) {
    const saved = frames[c.frame].stack[at + 2];
    if (!saved) throw new Error(`sot: except-handler block at level ${at} of ${frames[c.frame].code.name} has no saved exception`);
    return saved;
  }
  return handledIn(frames, c.frame);
}

const isNone = (v: Variable): boolean => v instanceof ConstVar && v.value.k === 'none';

/**
 * Enters the handler `c` with `exc` at translation time (a simulated re-raise): frames inside
 * the catching one are dropped, its stack is cut to the handler's depth and gets [lasti,]
 * exc (3.11+) or 3.10's six values, and it continues at the handler.
 */
export function enterHandler(tx: Translator, c: Catch, exc: Variable): void {
  const prev = c.handler.triples ? previousException(tx.frames, c) : null;
  tx.frames.length = c.frame + 1;
  const f = tx.frame;
  f.stack = f.stack.slice(0, c.handler.depth);
  if (c.handler.triples) {
    const p = prev ?? new ConstVar({ k: 'none' });
    f.stack.push(p, p, p, exc, exc, exc);
    f.excInfo = exc;
  } else {
    if (c.handler.lasti) f.push(new ConstVar({ k: 'int', v: c.at.offset >> 1 }));
    f.push(exc);
  }
  f.ip = c.handler.target;
}

/**
 * The child layout for when the step at the innermost frame's instruction `index` raises and a
 * simulated frame catches it: frames inside the catching one are dropped, its stack is cut to
 * the handler's depth, then [lasti,] the exception (step result 1) are pushed and it resumes at
 * the handler. Null when nothing catches it.
 */
export function unwindLayout(tx: Translator, T: SegmentTemplates, index: number): { resume: Template[]; layout: Layout } | null {
  const c = findHandler(tx.frames, index);
  if (!c) return null;
  const U = new LayoutBuilder(tx, T);
  const frames: FrameLayout[] = tx.frames.slice(0, c.frame + 1).map((fr, fi) => {
    const catching = fi === c.frame;
    const stack: LayoutValue[] = (catching ? fr.stack.slice(0, c.handler.depth) : fr.stack).map((v) => U.value(v));
    let excInfo = fr.excInfo ? U.value(fr.excInfo) : undefined;
    if (catching && c.handler.triples) {
      // 3.10: [prev tb, prev value, prev type, tb, value, type], the exception now handled
      const prev = previousException(tx.frames, c);
      const p = prev && !isNone(prev) ? U.value(prev) : U.slotFor({ k: 'const', v: { k: 'none' } });
      const e = U.slotFor({ k: 'result', i: 1 });
      stack.push(p, p, p, e, e, e);
      excInfo = e;
    } else if (catching) {
      if (c.handler.lasti) stack.push(U.slotFor({ k: 'const', v: { k: 'int', v: c.at.offset >> 1 } }));
      stack.push(U.slotFor({ k: 'result', i: 1 }));
    }
    const locals = fr.locals.map((l) => U.value(l));
    return { codeId: fr.code.id, globalsId: fr.globals.id as number, fnName: fr.fnName, ip: catching ? c.handler.target : fr.ip, stack, locals, excInfo };
  });
  return { resume: U.resume, layout: { frames, cells: U.cells(), gradDepth: tx.gradDepth } };
}

// Exception unwinding over the simulated frames (CPython's exception-table lookup): which
// handler catches an exception raised at the current instruction, the exception being handled
// (sys.exc_info) for a bare `raise`, and the layout of the trace-tree child that continues at a
// handler when a concrete step raises at run time (sot/trace_tree.ts Exit.unwind).
import type { Template } from '../../../sot/trace_tree.js';
import type { Variable } from '../../../sot/variables.js';
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
    if (catching && c.handler.lasti) stack.push(U.slotFor({ k: 'const', v: { k: 'int', v: c.at.offset >> 1 } }));
    if (catching) stack.push(U.slotFor({ k: 'result', i: 1 }));
    const locals = fr.locals.map((l) => U.value(l));
    const excInfo = fr.excInfo ? U.value(fr.excInfo) : undefined;
    return { codeId: fr.code.id, globalsId: fr.globals.id as number, fnName: fr.fnName, ip: catching ? c.handler.target : fr.ip, stack, locals, excInfo };
  });
  return { resume: U.resume, layout: { frames, cells: U.cells(), gradDepth: tx.gradDepth } };
}

// Generators made and consumed inside translated code. Calling a generator function makes a
// GeneratorVar holding the generator's simulated frame (arguments bound, nothing run yet). Each
// resumption — next(), send(), a FOR_ITER step, `yield from` (SEND / YIELD_FROM), a draining
// builtin — runs that frame inside the consumer's instruction until its next YIELD_VALUE (the
// frame stays suspended in the GeneratorVar) or its return. A break inside the generator breaks
// the consuming instruction, as an inlined call inside one instruction does (call_inline.ts).
//
// A started generator has no real counterpart (CPython cannot build a generator suspended
// mid-body), so a GeneratorVar must never reach Python: when one is live at the end of a segment
// (a break, a return, a side effect handing it over), the translation is redone with the
// generator made at that call site for real instead (SiteEscape, caught in runtime.ts), and the
// generator then runs concretely as before (its calls and next() are concrete steps).
import { GraphBreak, BREAKS } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { BoundMethodVar, ConstVar, IterVar, Variable } from '../../../sot/variables.js';
import { HANDLERS } from '../handlers/index.js';
import type { CodeInfo } from './code.js';
import type { Frame } from './frame.js';
import type { Translator } from './translator.js';
import { truthy } from './semantics.js';

const NONE = (): ConstVar => new ConstVar({ k: 'none' });

/**
 * A value modelled only while it stays inside one segment (it has no real counterpart that the
 * child of a break could be given): reaching a template throws SiteEscape (segment.ts).
 */
export abstract class SiteBoundVar extends Variable {
  constructor(readonly site: string) { super(null); }
}

/** A generator object made by translated code; `frame` is its simulated, suspended frame. */
export class GeneratorVar extends SiteBoundVar {
  readonly kind = 'generator';
  state: 'created' | 'suspended' | 'running' | 'done' = 'created';
  /** The value of the last YIELD_VALUE (read by resume()). */
  yielded: Variable | null = null;
  constructor(readonly frame: Frame, site: string, readonly name: string) { super(site); }
}

/** The generator a simulated frame belongs to (YIELD_VALUE looks it up). */
const generatorOf = new WeakMap<Frame, GeneratorVar>();

/**
 * Thrown when a value the translator made for one call site cannot cross a segment boundary
 * (a started generator): the translation is redone with that site run concretely.
 */
export class SiteEscape extends Error {
  constructor(readonly site: string, what: string) {
    super(`${what} made at ${site} is live across a graph break`);
    this.name = 'SiteEscape';
  }
}

/** Call sites whose values are made for real in this translation (set by runtime.ts on a retry; '*': all). */
export const concreteSites = new WeakMap<Translator, Set<string>>();

/** The site of the instruction running in the innermost frame (its CALL). */
const currentSite = (tx: Translator): string => `${tx.frame.code.id}@${tx.frame.ip - 1}`;

/** The current call makes its value for real (an earlier attempt saw it escape). */
export function siteIsConcrete(tx: Translator): boolean {
  const sites = concreteSites.get(tx);
  return sites !== undefined && (sites.has('*') || sites.has(currentSite(tx)));
}

/** Why calling this generator function here must run concretely, or null to simulate it. */
export function generatorRefusal(tx: Translator, code: CodeInfo): string | null {
  if (siteIsConcrete(tx)) return 'a generator live across a graph break';
  return tx.host.unsupportedReason(code, true);
}

/** A new generator over `frame` (arguments already bound). */
export function newGenerator(tx: Translator, frame: Frame, name: string): GeneratorVar {
  const g = new GeneratorVar(frame, currentSite(tx), name);
  generatorOf.set(frame, g);
  return g;
}

export type Resumed = { readonly done: false; readonly value: Variable } | { readonly done: true; readonly value: Variable };

/**
 * Runs the generator to its next yield or its return, sending `sent` (None for next()). On any
 * failure the generator's frame is put back and the consuming instruction breaks.
 */
export function resume(tx: Translator, g: GeneratorVar, sent: Variable): Resumed {
  if (g.state === 'done') return { done: true, value: NONE() };
  if (g.state === 'running') throw new GraphBreak('SOT007', 'ValueError: generator already executing');
  const isNone = sent instanceof ConstVar && sent.value.k === 'none';
  if (g.state === 'created' && !isNone) throw new GraphBreak('SOT007', "TypeError: can't send non-None value to a just-started generator");
  const f = g.frame;
  const saved = { ip: f.ip, stack: f.stack.slice(), locals: f.locals.slice(), excInfo: f.excInfo, state: g.state };
  const depth = tx.frames.length;
  const caller = tx.frame;
  // a fresh generator starts at RETURN_GENERATOR / GEN_START, which stand for "made, then resumed with None"
  if (g.state === 'suspended') f.push(sent);
  g.state = 'running';
  g.yielded = null;
  try {
    tx.pushFrame(f);
    for (let steps = 0; tx.frames.length > depth; steps++) {
      if (steps > 100_000) throw new GraphBreak('SOT007', 'a generator runs too long');
      const fr = tx.frame;
      const ins = fr.code.instructions[fr.ip];
      const h = ins && HANDLERS[ins.opname];
      if (!h) throw new GraphBreak('SOT007', `opcode ${ins?.opname ?? '(end)'} in a generator`);
      fr.ip++;
      h(tx, ins);
    }
    // an exception unwound past the generator's frame would have dropped frames of the consumer
    if (tx.frames.length !== depth || tx.frame !== caller) throw new GraphBreak('SOT007', 'an exception left a generator');
    if ((g.state as GeneratorVar['state']) === 'suspended') return { done: false, value: g.yielded! };
    g.state = 'done';
    return { done: true, value: caller.pop() };
  } catch (e) {
    tx.frames.length = depth;
    f.ip = saved.ip; f.stack = saved.stack; f.locals = saved.locals; f.excInfo = saved.excInfo;
    g.state = saved.state;
    if (e instanceof GraphBreak) throw new GraphBreak(BREAKS.get(e.code)!.effect === 'fallback' ? 'SOT007' : e.code, `in generator ${g.name}: ${e.detail}`);
    if (e instanceof HostError) throw new GraphBreak('SOT007', `in generator ${g.name}: ${e.pyType}: ${e.message}`);
    throw e;
  }
}

/** YIELD_VALUE (and a yielding YIELD_FROM): the generator's frame suspends with `value`. */
export function yieldFrom(tx: Translator, value: Variable): void {
  const g = generatorOf.get(tx.frame);
  if (!g || g.state !== 'running') throw new GraphBreak('SOT007', 'yield outside a simulated generator');
  g.yielded = value;
  g.state = 'suspended';
  tx.frames.pop();
}

/** Most values a generator may yield before draining it is treated as unbounded. */
const DRAIN_LIMIT = 100_000;

/** Every remaining value (list(gen), tuple(gen), sum(gen), unpacking, ...). */
export function drain(tx: Translator, g: GeneratorVar): Variable[] {
  const out: Variable[] = [];
  for (;;) {
    const r = resume(tx, g, NONE());
    if (r.done) return out;
    out.push(r.value);
    if (out.length > DRAIN_LIMIT) throw new GraphBreak('SOT007', `generator ${g.name} yields too many values`);
  }
}

/** next(gen[, default]). An exhausted generator without a default raises StopIteration concretely. */
export function generatorNext(tx: Translator, g: GeneratorVar, dflt: Variable | undefined): Variable {
  const r = resume(tx, g, NONE());
  if (!r.done) return r.value;
  if (dflt) return dflt;
  throw new GraphBreak('SOT007', 'StopIteration from an exhausted generator');
}

/** FOR_ITER on a generator: the next value, or the loop's exit. */
export function generatorForIter(tx: Translator, g: GeneratorVar, exit: () => void): void {
  const r = resume(tx, g, NONE());
  if (r.done) exit();
  else tx.frame.push(r.value);
}

/** any()/all() stop at the first deciding value, as Python's do: the rest of the generator does not run. */
export function generatorAnyAll(tx: Translator, g: GeneratorVar, want: boolean): boolean {
  for (;;) {
    const r = resume(tx, g, NONE());
    if (r.done) return !want;
    if (truthy(tx, r.value) === want) return want;
  }
}

/** gen.send / gen.__next__ / gen.close / gen.throw (throw needs a real generator: it breaks). */
export function generatorAttr(g: GeneratorVar, name: string): Variable {
  if (['send', '__next__', 'close', 'throw', '__iter__'].includes(name)) return new BoundMethodVar(g, name);
  throw new GraphBreak('SOT007', `attribute '${name}' of a generator`);
}

export function generatorMethod(tx: Translator, g: GeneratorVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length) throw new GraphBreak('SOT007', `generator.${name}() with keywords`);
  if (name === 'send' && args.length === 1) {
    const r = resume(tx, g, args[0]);
    if (!r.done) return r.value;
    throw new GraphBreak('SOT007', 'StopIteration from generator.send()');
  }
  if (name === '__next__' && !args.length) return generatorNext(tx, g, undefined);
  if (name === '__iter__' && !args.length) return g;
  if (name === 'close' && !args.length && (g.state === 'created' || g.state === 'done')) {
    // nothing of the body ran (or it finished): closing only marks it finished
    g.state = 'done';
    return NONE();
  }
  throw new GraphBreak('SOT007', `generator.${name}() on a ${g.state} generator`);
}

/**
 * `yield from` / SEND: sends `v` into the sub-iterator. A simulated generator is resumed; an
 * iterator over known values yields its next one (only None can be sent to it).
 */
export function sendInto(tx: Translator, recv: Variable, v: Variable): Resumed {
  if (recv instanceof GeneratorVar) return resume(tx, recv, v);
  if (recv instanceof IterVar) {
    if (!(v instanceof ConstVar && v.value.k === 'none')) throw new GraphBreak('SOT007', "AttributeError: iterator has no attribute 'send'");
    if (recv.pos < recv.items.length) return { done: false, value: recv.items[recv.pos++] };
    return { done: true, value: NONE() };
  }
  throw new GraphBreak('SOT009', `yield from ${recv.kind}`);
}

// The translator's view of CPython: trampolines into compat/paddle/jit/sot/runtime.py with ids
// and tagged strings (frontend/python/sot/encoding.ts), caches of code objects and object
// descriptions, and the Python-specific parts of ending a segment.
import type { ConcreteStep, Host } from '../../../sot/host.js';
import { HostError } from '../../../sot/host.js';
import type { HostRef, RtValue } from '../../../sot/values.js';
import { resolveLocal } from '../../../sot/guards.js';
import { itemSource, slotSource, type Source } from '../../../sot/sources.js';
import type { ObjInfo, Variable } from '../../../sot/variables.js';
import { type BreakEvent, GraphBreak } from '../../../sot/graph_breaks.js';
import { HANDLERS } from '../handlers/index.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import type { HandleTable } from '../handles.js';
import type { Decoder, Instruction } from '../bytecode/decode.js';
import { CO_ASYNC_GENERATOR, CO_COROUTINE, CO_ITERABLE_COROUTINE, CodeInfo, type CodeWire } from './code.js';
import { type Codec, decodeValue, decodeValues, encodeValue } from './encoding.js';
import type { Translator } from './translator.js';
import type { Frame } from './frame.js';
import { type VersionTable, versionTable } from './versions.js';

/** CALL_INTRINSIC_1 functions the translator models (others make the code run as plain Python). */
const INTRINSICS_1 = new Set(['INTRINSIC_UNARY_POSITIVE', 'INTRINSIC_LIST_TO_TUPLE']);

/** Why an instruction with a handler still cannot be simulated, decided from its argument alone. */
function staticallyUnsupported(host: SotPythonHost, ins: Instruction): string | null {
  if (ins.opname === 'CALL_INTRINSIC_1' && !INTRINSICS_1.has(host.intrinsic1(ins.arg))) return `intrinsic ${host.intrinsic1(ins.arg)}`;
  if (ins.opname === 'LOAD_COMMON_CONSTANT' && host.decoder.info.commonConstants[ins.arg] === undefined) return `common constant ${ins.arg}`;
  return null;
}

/** CPython 3.12+ wraps a generator's body in a handler turning StopIteration into RuntimeError. */
const isGeneratorWrapper = (host: SotPythonHost, ins: Instruction): boolean =>
  ins.opname === 'CALL_INTRINSIC_1' && host.intrinsic1(ins.arg) === 'INTRINSIC_STOPITERATION_ERROR';

/**
 * A generator's handlers are only CPython's own (the StopIteration wrapper, `yield from`'s
 * CLEANUP_THROW, comprehension cleanup): no try/finally or with whose code would run when a
 * suspended generator is closed or collected (which a simulated generator never is).
 */
function generatorHandlersOnly(host: SotPythonHost, code: CodeInfo): boolean {
  for (const target of code.wire.handlers ?? []) {
    const i = code.byOffset.get(target);
    const ins = i === undefined ? undefined : code.instructions[i];
    if (!ins) return false;
    if (isGeneratorWrapper(host, ins) || ins.opname === 'CLEANUP_THROW' || code.cleanupHandlerCode.has(ins.index)) continue;
    return false;
  }
  return true;
}

/** The Python functions of paddle.jit.sot.runtime, as PyProxies kept for the process. */
export interface PyRuntime {
  code_info(oid: number): string;
  describe(oid: number): string;
  type_name(oid: number): string;
  get_attr(valueEnc: string, name: string): string;
  global_lookup(globalsOid: number, name: string): string;
  function_parts(oid: number): string;
  step(opname: string, arg: number, argvalEnc: string, operandsEnc: string): string;
  pin(oid: number): void;
  unpin(oid: number): void;
  end_call(): void;
  source_line(filename: string, line: number): string;
  dtype_name(oid: number): string;
  dtype_object(name: string): number;
  layer_call_target(oid: number): number;
  compat_function(module: string, name: string): number;
  isinstance_(valueEnc: string, clsEnc: string): boolean;
  sorted_values(enc: string): string;
  builtin_object(name: string): number;
  reencode(oid: number): string;
  snapshot(oid: number): number;
  is_library(oid: number): number;
  set_error_location(framesJson: string): void;
  take_exception(framesJson: string): string;
  type_id(oid: number): number;
  register_guards(json: string): number;
  check_guards(gid: number): boolean;
  drop_guards(gid: number): void;
  super_attr(pairEnc: string, name: string): string;
  import_module(globalsOid: number, name: string, fromlistEnc: string, level: number): string;
  plain_attr(oid: number, name: string): boolean;
  builtin_type_has_attr(typeName: string, name: string): boolean;
  /** The train mode Layer.train()/eval() last set (Paddle's tracer mode; compile_cache.ts). */
  train_mode(): boolean;
  /** paddle.jit.sot.psdb marks of a code object (by id()): 1 check_no_breakgraph, 2 check_no_fallback. */
  psdb_flags(codeId: number): number;
  plain_class(oid: number): number;
  class_lookup(clsOid: number, name: string, afterOid: number): string;
  instance_attr(oid: number, name: string): string;
}

/** A value at an attribute path that could not be read (see SotPythonHost.resolve). */
const UNREADABLE: RtValue = { k: 'str', v: '\u0000<unreadable attribute>' };

/** A Python object known by id(). Its type name is fetched only when a message needs it. */
export class PyRef implements HostRef {
  private _typeName: string | null = null;
  constructor(readonly id: number, private readonly rt: PyRuntime) {}
  get typeName(): string { return (this._typeName ??= this.rt.type_name(this.id)); }
  /**
   * id() of the object's type now (the type is pinned for good on the Python side). Not cached:
   * refs are interned per object and `obj.__class__ = Other` changes it (type guards read this).
   */
  get typeId(): number { return this.rt.type_id(this.id); }
  get handle(): null { return null; }
}

export interface FunctionParts { globals: number; defaults: RtValue; kwdefaults: RtValue; cells: RtValue; contents: RtValue; contentIds: number[] }

/** A global / attribute / closure read the function's wrapper re-checks with `is` on every call. */
/** kind 0: globals dict item, 1: attribute, 2: builtin read through a globals dict (not shadowed), 3: contents of a list/dict. */
export interface HostGuard { container: number; name: string; kind: 0 | 1 | 2 | 3; valueId: number }

export class SotPythonHost implements Host, Codec {
  readonly lang = 'python' as const;
  private codes = new Map<number, CodeInfo>();
  private infos = new Map<number, ObjInfo>();
  private refs = new Map<number, PyRef>();
  private parts = new Map<number, FunctionParts>();
  /** Layer version seen by the last step (Python returns it with every step). */
  layerVersion = 0;
  /** Host guards gathered by the translation in progress. */
  pendingGuards: HostGuard[] = [];
  /** Objects pinned by the translation in progress (handed to the tree). */
  pendingPins: number[] = [];
  /** Tensors referenced by the translation in progress as constants (kept registered while the tree lives). */
  pendingTensors: Tensor[] = [];

  /** CPython's NULL stack entry: object id 0 in the encoding. */
  readonly nullRef: PyRef;

  constructor(readonly rt: PyRuntime, readonly handles: HandleTable, readonly decoder: Decoder) {
    this.nullRef = this.object(0);
    const info = decoder.info;
    this.binarySyms = info.binaryOps;
    this.cmpOps = info.cmpOp;
  }
  private readonly binarySyms: readonly string[];
  private readonly cmpOps: readonly string[];
  private unsupported = new Map<number, string | null>();

  // ---- interpreter tables ---------------------------------------------------------------------
  binaryOpSymbol(arg: number): string {
    const s = this.binarySyms[arg];
    if (s === undefined) throw new GraphBreak('SOT105', `BINARY_OP ${arg}`);
    return s;
  }
  binaryOpArg(sym: string): number {
    const i = this.binarySyms.indexOf(sym);
    if (i < 0) throw new GraphBreak('SOT105', `no BINARY_OP for ${sym}`);
    return i;
  }
  compareSymbol(arg: number): string { return this.cmpOps[arg >> this.v.compareShift]; }
  compareOpArg(sym: string): number { return this.cmpOps.indexOf(sym) << this.v.compareShift; }
  /** The version's opcode layouts (sot/versions.ts). */
  private get v(): VersionTable { return (this.versionCache ??= versionTable(this.decoder.info.version[1])); }
  private versionCache: VersionTable | null = null;
  intrinsic1(arg: number): string { return this.decoder.info.intrinsic1[arg] ?? `INTRINSIC_${arg}`; }

  /**
   * Why a code object must run as plain Python (checked before its first instruction), or null.
   * `asGenerator`: a plain generator's body, simulated by frontend/python/sot/generators.ts.
   */
  unsupportedReason(code: CodeInfo, asGenerator = false): string | null {
    const key = asGenerator ? -code.id : code.id;
    let r = this.unsupported.get(key);
    if (r !== undefined) return r;
    r = null;
    if (asGenerator ? (code.wire.flags & (CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR)) !== 0 : code.isGenerator) r = 'generator or coroutine (SOT106)';
    else if (code.hasRealHandlers && !code.simulatesHandlers) r = 'try/except/with blocks (SOT101)';
    else if (asGenerator && !generatorHandlersOnly(this, code)) r = 'a generator with try/with blocks (its handlers would run when it is closed) (SOT106)';
    else {
      for (const ins of code.instructions) {
        if (code.cleanupHandlerCode.has(ins.index) && !code.hasRealHandlers) continue;
        if (asGenerator && isGeneratorWrapper(this, ins)) continue;
        const why = HANDLERS[ins.opname] ? staticallyUnsupported(this, ins) : `opcode ${ins.opname}`;
        if (why) { r = `${why} (SOT101)`; break; }
      }
      if (!r) {
        const intro = code.wire.names.find((n) => ['locals', 'vars', 'eval', 'exec', '_getframe', 'globals', 'currentframe'].includes(n));
        if (intro) r = `frame introspection ${intro}() (SOT102)`;
      }
    }
    this.unsupported.set(key, r);
    return r;
  }

  // ---- Python objects the translator asks about -------------------------------------------------
  dtypeName(ref: HostRef): string | null { return this.rt.dtype_name(ref.id as number) || null; }
  dtypeObject(name: string): PyRef { const id = this.rt.dtype_object(name); this.pinForTree(this.object(id)); return this.object(id); }
  layerCallTarget(ref: HostRef): PyRef { return this.object(this.rt.layer_call_target(ref.id as number)); }
  compatFunction(module: string, name: string): PyRef { return this.object(this.rt.compat_function(module, name)); }
  private builtinIds = new Map<string, number>();
  /** id() of a builtin (asked once per name). */
  builtinId(name: string): number {
    let id = this.builtinIds.get(name);
    if (id === undefined) { id = this.rt.builtin_object(name); this.builtinIds.set(name, id); this.pin(this.object(id)); }
    return id;
  }
  builtinVar(tx: Translator, name: string): Variable { return tx.objectVar(this.object(this.rt.builtin_object(name)), null); }
  tensorTypeRef(): PyRef { return this.object(this.rt.compat_function('paddle.tensor', 'Tensor')); }
  /** isinstance for an object (or a tensor, standing for any Tensor) against a class value. */
  isinstance(ref: HostRef, cls: RtValue, isTensor: boolean): boolean {
    const v: RtValue = isTensor ? { k: 'obj', ref: this.tensorSample() } : { k: 'obj', ref };
    return this.rt.isinstance_(this.encode(v), this.encode(cls));
  }
  isinstanceOfValue(v: RtValue, cls: RtValue): boolean { return this.rt.isinstance_(this.encode(v), this.encode(cls)); }
  sortedValues(v: RtValue): RtValue { return this.decode(this.rt.sorted_values(this.encode(v))); }
  private tensorSample(): PyRef { return this.object(this.rt.compat_function('paddle.jit.sot.runtime', 'TENSOR_SAMPLE')); }

  // ---- Codec ------------------------------------------------------------------------------
  tensor(handle: number): Tensor {
    const t = this.handles.get(handle);
    this.sentThisCall.set(handle, t);
    return t;
  }
  handleOf(t: Tensor): number {
    const h = this.handles.add(t);
    this.sentThisCall.set(h, t);
    return h;
  }
  object(id: number): PyRef {
    let r = this.refs.get(id);
    if (!r) { r = new PyRef(id, this.rt); this.refs.set(id, r); this.cachedIds.push(id); }
    return r;
  }
  objectRef(id: number): PyRef { return this.object(id); }

  decode(s: string): RtValue {
    if (s.charCodeAt(0) === 69 /* E */) throw this.error(s);
    return decodeValue(s, this);
  }
  encode(v: RtValue): string { return encodeValue(v, this); }

  private error(s: string): HostError {
    const body = s.slice(1);
    const cut = body.indexOf('\u0001');
    return new HostError(cut < 0 ? 'RuntimeError' : body.slice(0, cut), cut < 0 ? body : body.slice(cut + 1));
  }

  // ---- Host -------------------------------------------------------------------------------
  describe(ref: HostRef): ObjInfo {
    const id = ref.id as number;
    let info = this.infos.get(id);
    if (info) return info;
    const d = this.rt.describe(id);
    const parts = d.split('|');
    switch (parts[0]) {
      case 'api': info = { kind: 'api', api: parts[1] }; break;
      case 'api_inplace': info = { kind: 'api', api: parts[1], inplace: true }; break;
      case 'function': info = { kind: 'function', codeId: Number(parts[1]), name: parts.slice(2).join('|') }; break;
      case 'method': info = { kind: 'method', self: this.object(Number(parts[1])), func: this.object(Number(parts[2])) }; break;
      case 'builtin': info = { kind: 'builtin', name: parts[1] }; break;
      case 'module': info = { kind: 'module', name: parts[1] }; break;
      case 'class': info = { kind: 'class', name: parts.slice(2).join('|'), pureCall: parts[1] === '1' }; break;
      case 'layer': info = { kind: 'layer', className: parts[1] }; break;
      default: info = { kind: 'other', traits: Number(parts[1]) || 0 };
    }
    this.infos.set(id, info);
    this.cachedIds.push(id);
    return info;
  }

  refresh(v: RtValue): RtValue {
    if ((v.k === 'list' || v.k === 'dict') && v.ref) return this.decode(this.rt.reencode(v.ref.id as number));
    return v;
  }

  getattr(obj: RtValue, name: string): RtValue { return this.getattrWithId(obj, name).value; }
  /** getattr plus the id of the value (for identity guards in the wrapper). */
  getattrWithId(obj: RtValue, name: string): { value: RtValue; id: number } {
    const r = this.rt.get_attr(this.encode(obj), name);
    if (r[0] === 'E') throw this.error(r);
    const cut = r.indexOf(';');
    return { value: this.decode(r.slice(cut + 1)), id: Number(r.slice(0, cut)) };
  }
  decodeMany(s: string): RtValue[] { return decodeValues(s, this); }

  concrete(step: ConcreteStep, operands: readonly RtValue[]): RtValue[] {
    const argval = step.argval ? this.encode(step.argval) : '';
    const ops = operands.map((o) => this.encode(o)).join('');
    const r = this.decode(this.rt.step(step.opname, step.arg, argval, ops));
    if (r.k !== 'tuple' || (r.items.length !== 2 && r.items.length !== 4) || r.items[1].k !== 'tuple') throw new Error('sot: malformed step result');
    const v = r.items[0];
    if (v.k === 'int') this.layerVersion = Number(v.v);
    if (r.items.length === 4) {
      // (handles the step's operands had, the tensors their Python objects hold now)
      const [, , olds, news] = r.items as [RtValue, RtValue, Extract<RtValue, { k: 'tuple' }>, Extract<RtValue, { k: 'tuple' }>];
      const map = new Map<Tensor, Tensor>();
      olds.items.forEach((h, i) => {
        const was = this.sentThisCall.get(Number((h as { v: number }).v));
        const now = news.items[i];
        if (was && now.k === 'tensor') map.set(was, now.t);
      });
      this.replaced = map;
    }
    return [v, ...r.items[1].items];
  }

  /** The exception a failed step left pending, taken over by a handler: [layer version, exc]. */
  takeException(at: BreakEvent): RtValue[] | null {
    const s = this.rt.take_exception(JSON.stringify(at.frames ?? [{ file: at.file, line: at.line, name: '' }]));
    if (!s) return null;
    const r = this.decode(s);
    if (r.k !== 'tuple' || r.items[1].k !== 'tuple') throw new Error('sot: malformed exception');
    return [r.items[0], ...r.items[1].items];
  }

  takeReplacedTensors(): ReadonlyMap<Tensor, Tensor> | null {
    const r = this.replaced;
    this.replaced = null;
    return r;
  }
  private replaced: Map<Tensor, Tensor> | null = null;
  /** The tensor behind each handle that crossed (either way) during this call (see concrete). */
  private sentThisCall = new Map<number, Tensor>();

  pin(ref: HostRef): void { this.pinId(ref.id as number); }
  unpin(ref: HostRef): void { this.unpinId(ref.id as number); }
  pinForTree(ref: HostRef): void { this.pendingPins.push(ref.id as number); this.pinId(ref.id as number); }

  /** Pin counts mirrored from Python: only pinned ids may stay in the id-keyed caches. */
  private pins = new Map<number, number>([[0, 1]]);
  pinId(id: number): void { this.pins.set(id, (this.pins.get(id) ?? 0) + 1); this.rt.pin(id); }
  unpinId(id: number): void {
    const n = (this.pins.get(id) ?? 0) - 1;
    if (n <= 0) { this.pins.delete(id); this.cachedIds.push(id); }   // its cache entries go at the call's end
    else this.pins.set(id, n);
    this.rt.unpin(id);
  }

  /**
   * End of a call: Python forgets unpinned objects, and their ids may be reused by new objects,
   * so every cache keyed by such an id is dropped too.
   */
  endCall(): void {
    if (this.sentThisCall.size) this.sentThisCall.clear();
    if (!this.cachedIds.length) return;
    // only the ids cached since the last call's end: walking the whole caches (every pinned
    // code object, function and class of the program) on each call cost ~1 µs per call
    for (const id of this.cachedIds) {
      if (this.pins.has(id)) continue;
      this.refs.delete(id);
      this.infos.delete(id);
      this.parts.delete(id);
    }
    this.cachedIds.length = 0;
  }
  /** Ids that entered an id-keyed cache (refs, infos, parts) since the last endCall. */
  private cachedIds: number[] = [];

  // ---- code objects and functions -----------------------------------------------------------
  /** CodeInfo of a function or code object id (decoded once). */
  codeOf(oid: number): CodeInfo {
    const wire = JSON.parse(this.rt.code_info(oid)) as CodeWire;
    let c = this.codes.get(wire.id);
    if (!c) {
      c = new CodeInfo(wire, this.decoder, (s) => this.decode(s));
      this.codes.set(wire.id, c);
      this.pinId(wire.id);
    }
    return c;
  }
  /** paddle.jit.sot.psdb marks of a code object (asked at breaks only: marks may be added late). */
  psdbFlags(codeId: number): number { return this.rt.psdb_flags(codeId); }
  code(codeId: number): CodeInfo {
    const c = this.codes.get(codeId);
    if (c) return c;
    return this.codeOf(codeId);
  }

  /** Globals, defaults and closure cells of a function (cached while the function is pinned). */
  functionParts(fn: HostRef): FunctionParts {
    const id = fn.id as number;
    let p = this.parts.get(id);
    if (!p) {
      const [g, e0, e1, e2, e3, ids] = JSON.parse(this.rt.function_parts(id)) as [number, string, string, string, string, number[]];
      p = { globals: g, defaults: this.decode(e0), kwdefaults: this.decode(e1), cells: this.decode(e2), contents: this.decode(e3), contentIds: ids };
      this.parts.set(id, p);
      this.cachedIds.push(id);
    }
    return p;
  }

  /** Current contents of a function's closure cells: they change between translations
   *  (nonlocal writes, appends), so translation reads them fresh, never from the cache. */
  closureContents(fn: HostRef): { contents: RtValue; contentIds: number[] } {
    this.parts.delete(fn.id as number);
    const p = this.functionParts(fn);
    return { contents: p.contents, contentIds: p.contentIds };
  }

  /** LOAD_GLOBAL's value; records the read so the wrapper re-checks it on every call. */
  globalLookup(globals: HostRef, name: string): { value: RtValue; builtin: boolean } {
    const r = this.rt.global_lookup(globals.id as number, name);
    if (r[0] === 'E') throw this.error(r);
    const cut = r.indexOf(';');
    const valueId = Number(r.slice(1, cut));
    const value = this.decode(r.slice(cut + 1));
    // Globals of Skiff's own modules (names its layers and functions use internally) are its
    // implementation, not state users rebind: no per-call re-check (~0.4 µs each). User code's
    // globals, and attributes of paddle's public modules (paddle.nn.functional.relu), are guarded.
    if (!this.isLibrary(globals)) this.pendingGuards.push({ container: globals.id as number, name, kind: r[0] === 'B' ? 2 : 0, valueId });
    this.pinForTree(this.object(valueId));
    return { value, builtin: r[0] === 'B' };
  }

  /** A host list/dict whose contents (element identities) the wrapper re-checks on every call. */
  recordContentGuard(container: HostRef, owner: HostRef | null): void {
    // Containers owned by Skiff's own paddle package (op tables, registries) never change.
    if (owner && this.isLibrary(owner)) return;
    const snap = this.rt.snapshot(container.id as number);
    this.pendingGuards.push({ container: container.id as number, name: '', kind: 3, valueId: snap });
    this.pinForTree(container);
    this.pinForTree(this.object(snap));
  }

  private library = new Map<number, number>();
  private libraryKind(ref: HostRef): number {
    const id = ref.id as number;
    let v = this.library.get(id);
    if (v === undefined) {
      v = Number(this.rt.is_library(id));
      if (this.pins.has(id)) this.library.set(id, v);
    }
    return v;
  }
  /** Whether an object is a module (or a module's globals dict) of Skiff's `paddle` package. */
  isLibrary(ref: HostRef): boolean { return this.libraryKind(ref) > 0; }
  /** ... of a private module of it (paddle._ops): implementation, never an API users rebind. */
  isPrivateLibrary(ref: HostRef): boolean { return this.libraryKind(ref) === 2; }

  /** An attribute read the wrapper must re-check (not needed under layers: the version covers them). */
  recordAttrGuard(container: HostRef, name: string, valueId: number): void {
    if (this.isPrivateLibrary(container)) { this.pinForTree(this.object(valueId)); return; }   // see globalLookup
    this.pendingGuards.push({ container: container.id as number, name, kind: 1, valueId });
    this.pinForTree(container);
    this.pinForTree(this.object(valueId));
  }

  sourceLine(file: string, line: number): string {
    try { return this.rt.source_line(file, line); } catch { return ''; }
  }

  /** The resolved constant argument a concrete step of `ins` needs (names, the globals dict). */
  argval(f: Frame, ins: Instruction): RtValue | undefined {
    const names = f.code.wire.names;
    const globals: RtValue = { k: 'obj', ref: f.globals };
    switch (ins.opname) {
      case 'LOAD_ATTR': return { k: 'str', v: names[this.v.attrMethodBit ? ins.arg >> 1 : ins.arg] };
      case 'LOAD_METHOD': return { k: 'str', v: names[ins.arg] };
      case 'LOAD_SUPER_ATTR': return { k: 'str', v: names[ins.arg >> 2] };
      case 'STORE_ATTR': case 'DELETE_ATTR': case 'IMPORT_FROM': return { k: 'str', v: names[ins.arg] };
      case 'LOAD_GLOBAL': return { k: 'tuple', items: [globals, { k: 'str', v: names[this.v.globalNullBit ? ins.arg >> 1 : ins.arg] }] };
      case 'DELETE_GLOBAL': case 'IMPORT_NAME': return { k: 'tuple', items: [globals, { k: 'str', v: names[ins.arg] }] };
      case 'CALL_INTRINSIC_1': return { k: 'str', v: this.intrinsic1(ins.arg) };
      // 3.12: keyword names come from the KW_NAMES before the CALL
      case 'CALL': return f.kwNames ? { k: 'tuple', items: f.kwNames.map((v) => ({ k: 'str', v })) } : undefined;
      default: return undefined;
    }
  }

  /**
   * The host check of a node translated after a concrete step: its host reads (globals,
   * attributes, closure cells) may have been changed by that step, so they are checked when a
   * call reaches the node, not only at the function's entry. Null for entry nodes (the wrapper
   * checks theirs before the call) and for nodes without host reads.
   */
  hostCheckFor(tx: Translator): ((entry: readonly RtValue[]) => boolean) | null {
    if (!tx.nodeHostGuards || !this.pendingGuards.length) return null;
    const gid = this.rt.register_guards(JSON.stringify(this.pendingGuards.map((g) => [g.container, g.name, g.kind, g.valueId])));
    this.pendingGuardSets.push(gid);
    const rt = this.rt;
    return () => rt.check_guards(gid);
  }
  /** Node guard sets registered by the translation in progress (dropped with the tree). */
  pendingGuardSets: number[] = [];

  /** getattr(super(cls, obj), name), with the class that defines it and its raw value (guarded). */
  superAttr(cls: RtValue, obj: RtValue, name: string): RtValue {
    const r = this.rt.super_attr(this.encode({ k: 'tuple', items: [cls, obj] }), name);
    if (r[0] === 'E') throw this.error(r);
    const [owner, raw] = r.split(';', 2).map(Number);
    const value = this.decode(r.slice(r.indexOf(';', r.indexOf(';') + 1) + 1));
    this.recordAttrGuard(this.object(owner), name, raw);
    return value;
  }

  /** Whether instances of the class are plain objects the translator may build (queries.plain_class). */
  plainClass(ref: HostRef): boolean { return this.rt.plain_class(ref.id as number) === 1; }
  /**
   * `name` in the MRO of a plain class (after `after`, as super() looks): what kind of class
   * attribute it is and its value. Functions, static methods, properties and plain values are
   * guarded (the wrapper re-checks getattr(owner, name) with `is`).
   */
  classLookup(cls: HostRef, name: string, after: HostRef | null): { kind: string; value: RtValue } {
    const r = this.rt.class_lookup(cls.id as number, name, after ? after.id as number : 0);
    if (r[0] === 'E') throw this.error(r);
    const cut = [0, 0, 0];
    for (let i = 0, at = -1; i < 3; i++) { at = r.indexOf(';', at + 1); cut[i] = at; }
    const kind = r.slice(0, cut[0]);
    const owner = Number(r.slice(cut[0] + 1, cut[1])), guard = Number(r.slice(cut[1] + 1, cut[2]));
    if (['object', 'function', 'static', 'property', 'value'].includes(kind)) this.recordAttrGuard(this.object(owner), name, guard);
    return { kind, value: this.decode(r.slice(cut[2] + 1)) };
  }

  /** obj.__dict__[name] now, undefined when the instance dict has no such key (queries.instance_attr). */
  instanceAttr(ref: HostRef, name: string): RtValue | undefined {
    const r = this.rt.instance_attr(ref.id as number, name);
    return r === '' ? undefined : this.decode(r);
  }

  /**
   * The value at an attribute path of an entry object (a plain instance guarded by its type,
   * fresh_objects.ts): its own __dict__ entry, undefined when it has none; items of what it holds.
   * Read once per node run (memo by entry array), so templates evaluated after the node's effects
   * and step still see what its guards checked, as the slots' own values are.
   */
  resolve(s: Source, entry: readonly RtValue[]): RtValue | undefined {
    let memo = this.resolved.get(entry);
    if (!memo) { memo = new Map(); this.resolved.set(entry, memo); }
    if (memo.has(s.key)) return memo.get(s.key);
    let v: RtValue | undefined;
    try {
      v = this.resolveNow(s, entry);
    } catch (e) {
      if (!(e instanceof HostError)) throw e;
      v = UNREADABLE;   // (fails every guard, absence included)
    }
    memo.set(s.key, v);
    return v;
  }
  private readonly resolved = new WeakMap<readonly RtValue[], Map<string, RtValue | undefined>>();
  private resolveNow(s: Source, entry: readonly RtValue[]): RtValue | undefined {
    if (s.k !== 'attr' && s.k !== 'item') return undefined;
    const base = resolveLocal(s.base, entry) ?? this.resolve(s.base, entry);
    if (!base || base === UNREADABLE) return base;
    if (s.k === 'item') return resolveLocal(itemSource(slotSource(0), s.index), [base]);
    return base.k === 'obj' ? this.instanceAttr(base.ref, s.name) : undefined;
  }
  /** What the translation read at `s` for this entry (the node's first run sees the same: see resolve). */
  noteResolved(entry: readonly RtValue[], s: Source, v: RtValue | undefined): void {
    let memo = this.resolved.get(entry);
    if (!memo) { memo = new Map(); this.resolved.set(entry, memo); }
    memo.set(s.key, v);
  }

  /** Whether obj.name = v simply stores v (no property setter, no custom __setattr__). */
  plainAttr(ref: HostRef, name: string): boolean { return this.rt.plain_attr(ref.id as number, name); }
  private builtinAttrs = new Map<string, boolean>();
  /** Whether instances of a builtin type have `name` (asked once per type and name). */
  builtinTypeHasAttr(typeName: string, name: string): boolean {
    const k = `${typeName}.${name}`;
    let v = this.builtinAttrs.get(k);
    if (v === undefined) { v = Boolean(this.rt.builtin_type_has_attr(typeName, name)); this.builtinAttrs.set(k, v); }
    return v;
  }

  /** A module already imported (sys.modules), as IMPORT_NAME would return it; null when importing would run code. */
  importedModule(globals: HostRef, name: string, fromlist: RtValue, level: number): RtValue | null {
    const r = this.rt.import_module(globals.id as number, name, this.encode(fromlist), level);
    return r ? this.decode(r) : null;
  }
}


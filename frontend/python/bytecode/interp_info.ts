// Facts about the running CPython, read from its own `dis`/`opcode` modules at start-up
// (never hard-coded tables): opcode numbers, inline-cache sizes, jump kinds, operator names.

export interface InterpreterInfo {
  /** [major, minor] of the running interpreter, e.g. [3, 13]. */
  readonly version: readonly [number, number];
  readonly opmap: Readonly<Record<string, number>>;
  /** Inline CACHE entries (code units) after each opcode, by name. */
  readonly cacheEntries: Readonly<Record<string, number>>;
  /** Opcodes whose argument is a jump (dis.hasjump / hasjrel+hasjabs). */
  readonly jumpOpcodes: readonly number[];
  /** Jumps whose argument is an absolute target (dis.hasjabs; empty on 3.12+). */
  readonly absoluteJumpOpcodes: readonly number[];
  /** Opcodes >= this take an argument (dis.HAVE_ARGUMENT). */
  readonly haveArgument: number;
  /** dis.cmp_op: COMPARE_OP's comparison names. */
  readonly cmpOp: readonly string[];
  /** BINARY_OP's operator symbols by oparg (dis._nb_ops): '+', '+=', '[]' (3.14 subscr), ...; on 3.10
   * (no BINARY_OP) the same symbols in 3.11's order, used only by Skiff's concrete BINARY_OP steps. */
  readonly binaryOps: readonly string[];
  /** CALL_INTRINSIC_1 / _2 function names by oparg. */
  readonly intrinsic1: readonly string[];
  readonly intrinsic2: readonly string[];
  /** LOAD_COMMON_CONSTANT's builtins by oparg (opcode._common_constants, 3.14+), by name. */
  readonly commonConstants: readonly string[];
}

/** Python source that builds the InterpreterInfo dict inside the interpreter (run once). */
export const INTERP_INFO_PY = String.raw`
def _skiff_interp_info():
    import dis, opcode, sys
    ice = getattr(opcode, '_inline_cache_entries', {})
    if isinstance(ice, dict):
        caches = {k: int(v) for k, v in ice.items() if v}
    else:  # 3.12: a list indexed by opcode number
        caches = {name: int(ice[num]) for name, num in dis.opmap.items() if num < len(ice) and ice[num]}
    if hasattr(dis, 'hasjump'):
        jumps = sorted(set(dis.hasjump))
    else:
        jumps = sorted(set(dis.hasjrel) | set(dis.hasjabs))
    nb = [sym for _, sym in getattr(dis, '_nb_ops', [])]
    if not nb:  # 3.10 has one opcode per operator (BINARY_ADD, ...): Skiff's own numbering for its BINARY_OP steps
        nb = '+ & // << @ * % | ** >> - / ^'.split()
        nb += [s + '=' for s in nb]
    i1 = list(getattr(dis, '_intrinsic_1_descs', []))
    i2 = list(getattr(dis, '_intrinsic_2_descs', []))
    common = [c.__name__ for c in getattr(opcode, '_common_constants', [])]
    return {
        'version': [sys.version_info[0], sys.version_info[1]],
        'opmap': dict(dis.opmap),
        'cacheEntries': caches,
        'jumpOpcodes': jumps,
        'absoluteJumpOpcodes': sorted(set(getattr(dis, 'hasjabs', []))),
        'haveArgument': dis.HAVE_ARGUMENT,
        'cmpOp': list(dis.cmp_op),
        'binaryOps': nb,
        'intrinsic1': i1,
        'intrinsic2': i2,
        'commonConstants': common,
    }
`;

// Per-version meaning of opcodes that changed between CPython 3.12, 3.13 and 3.14.
// Handlers read these fields; they never test sys.version_info themselves.

export interface VersionTable {
  readonly minor: number;
  /** LOAD_GLOBAL with its low bit set pushes NULL before (3.11/3.12) or after (3.13+) the value. */
  readonly nullAfterGlobal: boolean;
  /** LOAD_ATTR method form pushes [meth, self]; the non-method form with the bit set pushes [NULL, attr] (3.12) or [attr, NULL] (3.13+). */
  readonly nullAfterAttr: boolean;
  /** CALL's stack: [NULL|meth, callable|self, args] (3.12) or [callable, NULL|self, args] (3.13+). */
  readonly callableFirst: boolean;
  /** COMPARE_OP: comparison index = arg >> shift (4 on 3.12, 5 on 3.13+); bit 16 = coerce to bool (3.13+). */
  readonly compareShift: number;
  readonly compareToBool: boolean;
  /** Instructions at FOR_ITER's target that only run on exhaustion and are skipped with it. */
  readonly forIterEpilogue: readonly string[];
  /** Whether the exhausted FOR_ITER leaves the iterator for the epilogue (3.14 POP_ITER) or pops it. */
  readonly forIterKeepsIterator: boolean;
  /** END_FOR pops this many values when executed. */
  readonly endForPops: number;
  /** MAKE_FUNCTION takes its flags as oparg (3.12) or uses SET_FUNCTION_ATTRIBUTE (3.13+). */
  readonly makeFunctionFlags: boolean;
  /** CALL_FUNCTION_EX always has a kwargs entry (NULL when absent, 3.14) instead of oparg & 1. */
  readonly callExAlwaysHasKwargs: boolean;
}

export function versionTable(minor: number): VersionTable {
  if (minor === 12) {
    return {
      minor, nullAfterGlobal: false, nullAfterAttr: false, callableFirst: false, compareShift: 4, compareToBool: false,
      forIterEpilogue: ['END_FOR'], forIterKeepsIterator: false, endForPops: 2, makeFunctionFlags: true,
      callExAlwaysHasKwargs: false,
    };
  }
  if (minor === 13) {
    return {
      minor, nullAfterGlobal: true, nullAfterAttr: true, callableFirst: true, compareShift: 5, compareToBool: true,
      forIterEpilogue: ['END_FOR', 'POP_TOP'], forIterKeepsIterator: false, endForPops: 1, makeFunctionFlags: false,
      callExAlwaysHasKwargs: false,
    };
  }
  if (minor === 14) {
    return {
      minor, nullAfterGlobal: true, nullAfterAttr: true, callableFirst: true, compareShift: 5, compareToBool: true,
      forIterEpilogue: ['END_FOR', 'POP_ITER'], forIterKeepsIterator: false, endForPops: 1, makeFunctionFlags: false,
      callExAlwaysHasKwargs: true,
    };
  }
  throw new Error(`sot: Python 3.${minor} bytecode is not supported by this translator (3.12-3.14)`);
}

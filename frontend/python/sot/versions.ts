// Per-version meaning of opcodes that changed between CPython 3.10 and 3.14.
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
  /** LOAD_ATTR's name index is arg >> 1 with bit 0 = method form (3.12+), else arg itself (3.10/3.11 have LOAD_METHOD). */
  readonly attrMethodBit: boolean;
  /** LOAD_GLOBAL's name index is arg >> 1 with bit 0 = push NULL (3.11+), else arg itself (3.10). */
  readonly globalNullBit: boolean;
  /** CALL_FUNCTION_EX (and a DICT_MERGE building its kwargs) has a NULL/self slot next to the callable (3.11+; not 3.10). */
  readonly callHasNullSlot: boolean;
  /** MAKE_FUNCTION pops the qualified name above the code object (3.10). */
  readonly makeFunctionQualname: boolean;
  /** try/with use a block stack (3.10): a handler gets [prev tb, prev value, prev type, tb, value, type];
   * POP_EXCEPT and RERAISE pop three, WITH_EXCEPT_START finds __exit__ 7 deep. */
  readonly blockStack?: boolean;
}

/** 3.10 and 3.11: no END_FOR (an exhausted FOR_ITER pops the iterator and jumps), no SET_FUNCTION_ATTRIBUTE. */
const PRE_312 = {
  nullAfterGlobal: false, nullAfterAttr: false, callableFirst: false, compareShift: 0, compareToBool: false,
  forIterEpilogue: [], forIterKeepsIterator: false, endForPops: 0, makeFunctionFlags: true, callExAlwaysHasKwargs: false,
  attrMethodBit: false,
} as const;

export function versionTable(minor: number): VersionTable {
  if (minor === 10) return { minor, ...PRE_312, globalNullBit: false, callHasNullSlot: false, makeFunctionQualname: true, blockStack: true };
  if (minor === 11) return { minor, ...PRE_312, globalNullBit: true, callHasNullSlot: true, makeFunctionQualname: false };
  if (minor === 12) {
    return {
      minor, nullAfterGlobal: false, nullAfterAttr: false, callableFirst: false, compareShift: 4, compareToBool: false,
      forIterEpilogue: ['END_FOR'], forIterKeepsIterator: false, endForPops: 2, makeFunctionFlags: true,
      callExAlwaysHasKwargs: false, attrMethodBit: true, globalNullBit: true, callHasNullSlot: true, makeFunctionQualname: false,
    };
  }
  if (minor === 13) {
    return {
      minor, nullAfterGlobal: true, nullAfterAttr: true, callableFirst: true, compareShift: 5, compareToBool: true,
      forIterEpilogue: ['END_FOR', 'POP_TOP'], forIterKeepsIterator: false, endForPops: 1, makeFunctionFlags: false,
      callExAlwaysHasKwargs: false, attrMethodBit: true, globalNullBit: true, callHasNullSlot: true, makeFunctionQualname: false,
    };
  }
  if (minor === 14) {
    return {
      minor, nullAfterGlobal: true, nullAfterAttr: true, callableFirst: true, compareShift: 5, compareToBool: true,
      forIterEpilogue: ['END_FOR', 'POP_ITER'], forIterKeepsIterator: false, endForPops: 1, makeFunctionFlags: false,
      callExAlwaysHasKwargs: true, attrMethodBit: true, globalNullBit: true, callHasNullSlot: true, makeFunctionQualname: false,
    };
  }
  throw new Error(`sot: Python 3.${minor} bytecode is not supported by this translator (3.10-3.14)`);
}

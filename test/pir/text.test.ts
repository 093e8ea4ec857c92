// The text form piece by piece: types, attributes (floats survive exactly), and parse errors
// that carry line:column and the op name.
import { describe, expect, it } from 'vitest';
import {
  Attr, parseAttribute, parseProgram, parseType, PirParseError, printAttr, printFloat, printProgram, Program, tensorType, vectorType,
} from '../../src/pir/index.js';
import { sym, SymDim } from '../../src/tensor/shape.js';
import { DTYPES } from '../../src/tensor/dtype.js';

describe('types', () => {
  it('print and parse back', () => {
    const cases = [
      tensorType('float32', [2, 3]), tensorType('float32', [-1, 128]), tensorType('int64', []),
      tensorType('bfloat16', [sym('s0'), SymDim.of('s0*2'), SymDim.of('(s0+1)//2'), sym('max_len'), 0]),
      vectorType([]), vectorType([tensorType('bool', [1]), vectorType([tensorType('uint8', [3])])]),
      ...DTYPES.map((d) => tensorType(d, [1])),
    ];
    for (const t of cases) expect(String(parseType(String(t)))).toBe(String(t));
    expect(String(tensorType('float32', [sym('s0'), 128]))).toBe('tensor<s0x128xf32>');
    expect(String(tensorType('float32', [-1, 128]))).toBe('tensor<?x128xf32>');
    expect(String(tensorType('float32', [sym('max_x')]))).toBe('tensor<(max_x)xf32>');
    expect(parseType('tensor<s1xi8x4xf32>')).toMatchObject({ dtype: 'float32', shape: [sym('s1'), sym('i8'), 4] });
  });
  it('reject malformed text', () => {
    expect(() => parseType('tensor<2x3>')).toThrow(/element type/);
    expect(() => parseType('tensor<2 x 3xf32>')).toThrow(PirParseError);
    expect(() => parseType('tensor<2x3xf32')).toThrow(/expected 'x' or '>'/);
    expect(() => parseType('f33')).toThrow(/expected a type/);
  });
});

describe('attributes', () => {
  it('every float survives print and parse bit-exactly', () => {
    const special = [0.1, 1 / 3, -0, 0, 5e-324, 1.7976931348623157e308, 1e21, 1e-7, Math.fround(0.1), 2 ** 53 + 2, -1.5, NaN, Infinity, -Infinity];
    let seed = 12345;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed; };
    const random = Array.from({ length: 2000 }, () => {
      const b = new DataView(new ArrayBuffer(8));
      b.setUint32(0, rnd()); b.setUint32(4, rnd());
      return b.getFloat64(0);
    });
    for (const v of [...special, ...random]) {
      const a = parseAttribute(printFloat(v));
      expect(a.kind).toBe('float');
      expect(Object.is((a as { value: number }).value, v), `${v} -> ${printFloat(v)}`).toBe(true);
    }
    expect(printFloat(1)).toBe('1.0');
    expect(printFloat(-0)).toBe('-0.0');
  });
  it('every kind keeps its kind', () => {
    const all = [Attr.int(-3), Attr.float(2), Attr.bool(false), Attr.str('a"b\\c\n\u0000é'), Attr.dtype('float16'), Attr.ints([]), Attr.ints([1, -2]),
      Attr.floats([]), Attr.floats([1, 0.5]), Attr.array([]), Attr.array([Attr.none, Attr.ints([])]), Attr.none, Attr.shape([sym('s0'), -1, 2]), Attr.shape([])];
    for (const a of all) {
      const back = parseAttribute(printAttr(a));
      expect(back).toEqual(a);
      expect(printAttr(back)).toBe(printAttr(a));
    }
  });
  it('rejects bad values', () => {
    expect(() => parseAttribute('i64[1.5]')).toThrow(/expected an integer/);
    expect(() => parseAttribute('"abc')).toThrow(/unterminated string/);
    expect(() => parseAttribute('"\\q"')).toThrow(/bad escape/);
    expect(() => parseAttribute('maybe')).toThrow(/unknown attribute value 'maybe'/);
    expect(() => parseAttribute('99999999999999999999')).toThrow(/out of range/);
  });
});

describe('parse errors', () => {
  const cases: [string, RegExp][] = [
    ['{\n  (%0) = "pd_op.data" () {name:"x"} : () -> tensor<3xf32>\n  (%0) = "pd_op.data" () {} : () -> tensor<3xf32>\n}', /^3:4: redefinition of %0 \(in "pd_op.data"\)/],
    ['{\n  (%0) = "nodialect" () {} : () -> ()\n}', /^2:10: op name "nodialect" must look like "dialect.op"/],
    ['{\n  (%0) = "gen.a" () {k:1, k:2} : () -> i64\n}', /^2:27: attribute 'k' is given twice \(in "gen.a"\)/],
    ['{\n  (%0, %1) = "gen.a" () {} : () -> i64\n}', /^2:3: 2 result\(s\) but 1 result type\(s\) \(in "gen.a"\)/],
    ['{\n  (%0) = "gen.a" () {} : () -> i64\n  () = "gen.b" (%0) {} : (f32) -> ()\n}', /^3:17: %0 has type i64 but the op signature says f32 \(in "gen.b"\)/],
    ['{\n  () = "gen.b" (%9) {} : (f32) -> ()\n  (%9) = "gen.a" () {} : () -> i64\n}', /^3:4: %9 is defined with type i64 but was used as f32 \(in "gen.a"\)/],
    ['{\n  () = "gen.r" () {} ({\n    (%0) = "gen.a" () {} : () -> i64\n  }) : () -> ()\n}', /^3:5: expected a block label \(\^bb0:\) or '}'/],
    ['{\n  () = "gen.b" () {} : () -> ()\n', /^3:1: expected an op or '}'/],
    ['{\n}\nextra', /^3:1: unexpected text: 'extra'/],
  ];
  for (const [text, re] of cases) {
    it(re.source.slice(1, 40), () => {
      let err: unknown;
      try { parseProgram(text); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(PirParseError);
      expect((err as Error).message).toMatch(re);
    });
  }
  it('comments and spacing are free, the printed form is canonical', () => {
    const p = parseProgram('// a program\n{ (%a) = "gen.a"(){ k : 1 }:()->i64 // trailing\n () = "gen.b" (%a) {} : (i64) -> () }');
    expect(printProgram(p)).toBe('{\n  (%0) = "gen.a" () {k:1} : () -> i64\n  () = "gen.b" (%0) {} : (i64) -> ()\n}\n');
    expect(printProgram(new Program())).toBe('{\n}\n');
  });
});

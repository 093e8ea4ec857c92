// Which Python exception a Paddle user expects for an error raised by the TS runtime.
// Rows are tried in order; the first match wins. Messages already name the op and shapes.

export interface PyError { kind: string; message: string }

const RULES: readonly [test: (e: Error) => boolean, kind: string][] = [
  [(e) => /\bnot (yet )?implemented\b|\bnot supported\b|\bunsupported\b/i.test(e.message), 'NotImplementedError'],
  [(e) => e.name === 'ShapeError', 'ValueError'],
  [(e) => e instanceof TypeError, 'TypeError'],
  // an axis out of range is an invalid argument to Paddle (ValueError) and an index error to numpy users: both
  [(e) => e instanceof RangeError && /\baxis\b|\bperm\b|\bdim\b/.test(e.message), 'AxisError'],
  [(e) => e instanceof RangeError, 'IndexError'],
  [(e) => /has been disposed/.test(e.message), 'RuntimeError'],
  [(e) => /\bdtypes?\b/.test(e.message), 'TypeError'],
  [(e) => /\bout of range\b|\bindex\b/.test(e.message), 'IndexError'],
  // Paddle raises ValueError for invalid arguments (its InvalidArgument errors), shapes included.
  [(e) => /shape|broadcast|\bdims?\b|\brank\b|invalid|expected|must/i.test(e.message), 'ValueError'],
];

export function pyErrorOf(e: unknown): PyError {
  if (!(e instanceof Error)) return { kind: 'RuntimeError', message: String(e) };
  for (const [test, kind] of RULES) if (test(e)) return { kind, message: e.message };
  return { kind: 'RuntimeError', message: e.message };
}

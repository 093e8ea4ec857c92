// A small FileCheck (LLVM's lit tool) for golden tests: `// CHECK: text` lines in a test file
// are matched in order against some output. Patterns are literal text, except `{{regex}}`.
//   CHECK:        the pattern occurs at or after the previous match
//   CHECK-NEXT:   ... on the line right after the previous match
//   CHECK-SAME:   ... on the same line as the previous match, after it
//   CHECK-NOT:    the pattern does not occur between the previous and the next match
//   CHECK-LABEL:  splits the output into sections first; other checks stay within their section
//   CHECK-EMPTY:  the next line is empty

export type DirectiveKind = 'CHECK' | 'CHECK-NEXT' | 'CHECK-SAME' | 'CHECK-NOT' | 'CHECK-LABEL' | 'CHECK-EMPTY';
export interface Directive { kind: DirectiveKind; pattern: string; line: number }

const DIRECTIVE = /^\s*\/\/\s*(CHECK(?:-NEXT|-SAME|-NOT|-LABEL|-EMPTY)?):(.*)$/;

export function parseDirectives(text: string): Directive[] {
  const out: Directive[] = [];
  text.split('\n').forEach((l, i) => {
    const m = DIRECTIVE.exec(l);
    if (m) out.push({ kind: m[1] as DirectiveKind, pattern: m[2].trim(), line: i + 1 });
  });
  return out;
}

/** The RUN line's command: `// RUN: verify` -> 'verify'. */
export function runMode(text: string): string | null {
  const m = /^\s*\/\/\s*RUN:\s*(\S+)/m.exec(text);
  return m ? m[1] : null;
}

function compile(pattern: string): RegExp {
  let src = '';
  let rest = pattern;
  for (;;) {
    const i = rest.indexOf('{{');
    if (i < 0) { src += escape(rest); break; }
    const j = rest.indexOf('}}', i + 2);
    if (j < 0) throw new Error(`FileCheck: unterminated {{ in pattern '${pattern}'`);
    src += escape(rest.slice(0, i)) + `(?:${rest.slice(i + 2, j)})`;
    rest = rest.slice(j + 2);
  }
  return new RegExp(src, 'g');
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Pos { line: number; col: number }

export class FileCheckError extends Error { override name = 'FileCheckError'; }

/** Checks `output` against the CHECK directives in `checks`; throws FileCheckError explaining the first failure. */
export function fileCheck(output: string, checks: string | readonly Directive[], file = '<checks>'): void {
  const ds = typeof checks === 'string' ? parseDirectives(checks) : checks;
  if (!ds.length) throw new FileCheckError(`${file}: no CHECK directives`);
  const lines = output.split('\n');
  const fail = (d: Directive, msg: string, at?: number): never => {
    const ctx = lines.map((l, i) => `${i === at ? '>' : ' '}${String(i + 1).padStart(4)}| ${l}`).join('\n');
    throw new FileCheckError(`${file}:${d.line}: ${d.kind}: ${d.pattern}\n  ${msg}\noutput:\n${ctx}`);
  };
  const find = (d: Directive, from: Pos, endLine: number): { line: number; start: number; end: number } | null => {
    const re = compile(d.pattern);
    for (let l = from.line; l < Math.min(endLine, lines.length); l++) {
      re.lastIndex = l === from.line ? from.col : 0;
      const m = re.exec(lines[l]);
      if (m) return { line: l, start: m.index, end: m.index + m[0].length };
    }
    return null;
  };

  // Labels first: each is searched after the previous one and bounds the checks around it.
  const labelAt = new Map<Directive, { line: number; end: number }>();
  let from: Pos = { line: 0, col: 0 };
  for (const d of ds) {
    if (d.kind !== 'CHECK-LABEL') continue;
    const m = find(d, from, lines.length);
    if (!m) fail(d, 'label not found', from.line);
    labelAt.set(d, { line: m!.line, end: m!.end });
    from = { line: m!.line + 1, col: 0 };
  }
  const labels = [...labelAt.values()];
  let section = 0;
  let end = labels[0]?.line ?? lines.length;
  let cur: Pos = { line: 0, col: 0 };
  let last: number | null = null;  // line of the previous positive match
  let nots: Directive[] = [];
  const checkNots = (upto: Pos): void => {
    for (const n of nots) {
      const m = find(n, cur, upto.line + 1);
      if (m && (m.line < upto.line || m.start < upto.col)) fail(n, 'excluded pattern found', m.line);
    }
    nots = [];
  };

  for (const d of ds) {
    switch (d.kind) {
      case 'CHECK-LABEL': {
        const l = labelAt.get(d)!;
        checkNots({ line: l.line, col: 0 });
        section++;
        end = labels[section]?.line ?? lines.length;
        cur = { line: l.line, col: l.end };
        last = l.line;
        break;
      }
      case 'CHECK-NOT': nots.push(d); break;
      case 'CHECK': case 'CHECK-NEXT': case 'CHECK-SAME': case 'CHECK-EMPTY': {
        let m: { line: number; start: number; end: number } | null;
        if (d.kind === 'CHECK') m = find(d, cur, end);
        else if (last === null) m = fail(d, `${d.kind} needs a previous match`);
        else if (d.kind === 'CHECK-SAME') m = find(d, cur, last + 1);
        else if (d.kind === 'CHECK-NEXT') m = last + 1 < end ? find(d, { line: last + 1, col: 0 }, last + 2) : null;
        else m = last + 1 < lines.length && lines[last + 1] === '' ? { line: last + 1, start: 0, end: 0 } : null;
        if (!m) fail(d, d.kind === 'CHECK' ? 'pattern not found' : `pattern not found on ${d.kind === 'CHECK-SAME' ? 'the same' : 'the next'} line`, d.kind === 'CHECK' ? cur.line : (last ?? 0) + (d.kind === 'CHECK-SAME' ? 0 : 1));
        checkNots({ line: m!.line, col: m!.start });
        cur = { line: m!.line, col: m!.end };
        last = m!.line;
        break;
      }
      default: { const never: never = d.kind; throw new Error(`unknown directive ${String(never)}`); }
    }
  }
  checkNots({ line: end, col: 0 });
}

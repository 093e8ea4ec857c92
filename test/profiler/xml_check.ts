import { expect } from 'vitest';

// Format checks for the viewer tests.
// checkXml: a small well-formedness check for the viewer's SVG (no XML library in the tree): tags
// balance, attributes are name="value" pairs, entities are known, text has no raw '<' or '&'.
// Returns the element names seen, in document order; throws with the offset of the first error.
export function checkXml(s: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  const ENT = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;
  let i = 0;
  const fail = (m: string): never => { throw new Error(`XML: ${m} at offset ${i}: ${JSON.stringify(s.slice(Math.max(0, i - 40), i + 40))}`); };
  const text = (end: number) => {
    for (let k = i; k < end; k++) {
      if (s[k] === '&' && !ENT.test(s.slice(k, k + 12))) { i = k; fail('bad entity'); }
      if (s[k] === '>') { i = k; fail("raw '>' in text is allowed but suspicious here"); }
    }
  };
  if (s.startsWith('<?xml')) i = s.indexOf('?>') + 2;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) { text(s.length); break; }
    text(lt);
    i = lt;
    if (s.startsWith('<!--', i)) { const e = s.indexOf('-->', i); if (e < 0) fail('unclosed comment'); i = e + 3; continue; }
    if (s[i + 1] === '/') {
      const m = /^<\/([A-Za-z_][\w:.-]*)\s*>/.exec(s.slice(i));
      if (!m) fail('bad end tag');
      const open = stack.pop();
      if (open !== m![1]) fail(`end tag </${m![1]}> closes <${open}>`);
      i += m![0].length;
      continue;
    }
    const m = /^<([A-Za-z_][\w:.-]*)/.exec(s.slice(i));
    if (!m) fail('bad start tag');
    names.push(m![1]);
    i += m![0].length;
    const seen = new Set<string>();
    for (;;) {
      const ws = /^\s*/.exec(s.slice(i))![0].length;
      i += ws;
      if (s.startsWith('/>', i)) { i += 2; break; }
      if (s[i] === '>') { stack.push(m![1]); i++; break; }
      if (!ws) fail('missing space before attribute');
      const a = /^([A-Za-z_][\w:.-]*)="([^"<]*)"/.exec(s.slice(i));
      if (!a) fail('bad attribute');
      if (seen.has(a![1])) fail(`duplicate attribute ${a![1]}`);
      seen.add(a![1]);
      const v = a![2];
      for (let k = 0; k < v.length; k++) if (v[k] === '&' && !ENT.test(v.slice(k, k + 12))) fail('bad entity in attribute');
      i += a![0].length;
    }
  }
  if (stack.length) throw new Error(`XML: unclosed <${stack.join('>, <')}>`);
  return names;
}

/** Checks Graphviz text line by line against the statement forms renderDot emits; returns node ids. */
export function parseDot(text: string): { nodes: Set<string>; edges: [string, string][] } {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^digraph "[^"]*" \{$/);
  expect(lines[lines.length - 1]).toBe('}');
  const nodes = new Set<string>(), edges: [string, string][] = [];
  let depth = 0;
  const QS = '"(?:[^"\\\\]|\\\\.)*"';
  for (const line of lines) {
    let m: RegExpExecArray | null;
    if (/^digraph /.test(line) || /^\s*subgraph cluster_\d+ \{$/.test(line)) depth++;
    else if (/^\s*\}$/.test(line)) depth--;
    else if (/^\s*(rankdir|compound|style)=[\w]+;$/.test(line) || /^\s*(node|edge) \[.*\];$/.test(line) || new RegExp(`^\\s*label=${QS};$`).test(line)) { /* settings */ }
    else if ((m = new RegExp(`^\\s*(${QS}) -> (${QS})(?: \\[[^\\]]*\\])?;$`).exec(line))) edges.push([m[1], m[2]]);
    else if ((m = new RegExp(`^\\s*(${QS}) \\[label=${QS}(?:, [\\w]+=(?:${QS}|[\\w]+))*\\];$`).exec(line))) nodes.add(m[1]);
    else throw new Error(`dot: unexpected line ${JSON.stringify(line)}`);
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
  for (const [a, b] of edges) { expect(nodes.has(a), a).toBe(true); expect(nodes.has(b), b).toBe(true); }
  return { nodes, edges };
}

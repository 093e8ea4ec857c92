// The FileCheck helper checks what it claims (and fails when it should).
import { describe, expect, it } from 'vitest';
import { fileCheck, FileCheckError, runMode } from './filecheck.js';

const out = ['module a', '  op one', '  op two', 'module b', '  op three', ''].join('\n');
const ok = (checks: string) => expect(() => fileCheck(out, checks)).not.toThrow();
const bad = (checks: string, re: RegExp) => expect(() => fileCheck(out, checks)).toThrow(re);

describe('filecheck', () => {
  it('CHECK and CHECK-NEXT', () => {
    ok('// CHECK: op one\n// CHECK-NEXT: op two');
    bad('// CHECK: op one\n// CHECK-NEXT: op three', /:2: CHECK-NEXT: op three\n {2}pattern not found on the next line/);
    bad('// CHECK: op two\n// CHECK: op one', /pattern not found/);
  });
  it('CHECK-SAME and regex blocks', () => {
    ok('// CHECK: op\n// CHECK-SAME: one');
    ok('// CHECK: op {{o[nw]e}}');
    bad('// CHECK: module a\n// CHECK-SAME: one', /same line/);
  });
  it('CHECK-NOT between matches and to the end', () => {
    ok('// CHECK: op one\n// CHECK-NOT: three\n// CHECK: op two');
    bad('// CHECK: op one\n// CHECK-NOT: two\n// CHECK: three', /CHECK-NOT: two\n {2}excluded pattern found/);
    bad('// CHECK: module b\n// CHECK-NOT: three', /excluded/);
  });
  it('CHECK-LABEL bounds the checks of each section', () => {
    ok('// CHECK-LABEL: module a\n// CHECK: op two\n// CHECK-LABEL: module b\n// CHECK-NEXT: op three');
    bad('// CHECK-LABEL: module a\n// CHECK: op three\n// CHECK-LABEL: module b', /CHECK: op three/);
    bad('// CHECK-LABEL: module c', /label not found/);
  });
  it('CHECK-EMPTY and RUN lines', () => {
    ok('// CHECK: op three\n// CHECK-EMPTY:');
    expect(() => fileCheck(out, 'no directives')).toThrow(FileCheckError);
    expect(runMode('// RUN: verify-error\n{}')).toBe('verify-error');
  });
});

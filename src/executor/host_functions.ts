// Host functions known by name to every compiled program. A program's host-call node names its
// callee; compile()'s `hostFns` option binds callees per program (control flow's region
// runners), and this registry binds the ones that live longer than one program: a PyLayer's
// Python backward captured by to_static (sot/pylayer_graph.ts) is registered once at translation
// and called by every backward program that differentiates through it.
import type { HostFn } from './types.js';

const registry = new Map<string, HostFn>();

/** Registers `fn` as `callee` (a name taken twice is an error: callees must be unique). */
export function registerHostFunction(callee: string, fn: HostFn): void {
  if (registry.has(callee)) throw new Error(`executor: host function '${callee}' is registered twice`);
  registry.set(callee, fn);
}

/** Drops a registered host function (programs compiled with it keep their own reference). */
export function unregisterHostFunction(callee: string): boolean { return registry.delete(callee); }

export const registeredHostFunction = (callee: string): HostFn | undefined => registry.get(callee);

// Paddle's Scope: persistable tensors by name. paddle.static.create_parameter puts its
// (eagerly initialized) tensors into the global scope; Executor.run binds a program's
// builtin.parameter ops from it by name.
import { Tensor, untracked } from '../tensor/tensor.js';

/** What Scope.find_var returns, shaped like Paddle's (`scope.find_var(name).get_tensor()`). */
export interface ScopeVar { readonly name: string; get_tensor(): Tensor }

/**
 * Named persistable tensors.
 * @example
 *   const w = paddle.static.create_parameter([4, 2], 'float32', { name: 'w' });
 *   paddle.static.global_scope().find_var('w').get_tensor();  // the eager Tensor behind w
 */
export class Scope {
  private readonly vars = new Map<string, Tensor>();

  find_var(name: string): ScopeVar | null {
    const t = this.vars.get(name);
    return t ? { name, get_tensor: () => t } : null;
  }
  get(name: string): Tensor | undefined { return this.vars.get(name); }
  has(name: string): boolean { return this.vars.has(name); }
  /** Binds `name` to a storage-sharing view of `t` that the scope owns (`t` may be disposed later). */
  set(name: string, t: Tensor): Tensor {
    const own = ownedView(t);
    const old = this.vars.get(name);
    this.vars.set(name, own);
    old?.dispose();
    return own;
  }
  /** Removes `name` and frees its tensor; true if it was there. */
  erase(name: string): boolean {
    const t = this.vars.get(name);
    if (!t) return false;
    this.vars.delete(name);
    t.dispose();
    return true;
  }
  local_var_names(): string[] { return [...this.vars.keys()]; }
}

const globalScope = new Scope();
/** The scope create_parameter fills and Executor.run reads by default. */
export const global_scope = (): Scope => globalScope;

/**
 * A new handle on t's storage, owned by the caller and outside every scope() (so a scope the
 * caller runs in never disposes it); the GC backstop frees it if the owner is dropped.
 */
export function ownedView(t: Tensor): Tensor {
  const v = untracked(() => t._alias('paddle.static'));
  v.stop_gradient = t.stop_gradient;
  v.name = t.name;
  v._adoptByGC();
  return v;
}

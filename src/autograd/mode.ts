// Grad mode: whether eager ops are recorded on the tape. Scopes take callbacks in TS
// (paddle.no_grad(() => ...)); Python's context managers and decorators flip the same switch
// through the bridge (setGradEnabled returns the previous state so they can restore it).
let enabled = true;

export const isGradEnabled = (): boolean => enabled;

/** Sets grad mode; returns the previous mode. */
export function setGradEnabled(on: boolean): boolean {
  const prev = enabled;
  enabled = Boolean(on);
  return prev;
}

function withMode<R>(on: boolean, fn: () => R): R {
  const prev = setGradEnabled(on);
  try {
    return fn();
  } finally {
    enabled = prev;
  }
}

/**
 * Runs fn without recording gradients (paddle.no_grad); noGradFn(f) is the decorator form.
 * @example const y = paddle.no_grad(() => model(x));
 */
export function no_grad<R>(fn: () => R): R { return withMode(false, fn); }
/** Runs fn with gradients recorded even inside no_grad (paddle.enable_grad). */
export function enable_grad<R>(fn: () => R): R { return withMode(true, fn); }
/** Runs fn with grad mode `on` (paddle.set_grad_enabled(mode)); without fn it just sets the mode. */
export function set_grad_enabled<R>(on: boolean, fn?: () => R): R | undefined {
  if (!fn) { setGradEnabled(on); return undefined; }
  return withMode(on, fn);
}
/** A function that always runs with grad disabled (the decorator form of no_grad). */
export function noGradFn<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  return (...args: A) => withMode(false, () => f(...args));
}

// Module under test for the Vite plugin: TypeScript (stripped by Vite before the plugin runs).
import * as helpers from './helpers.js';
import { gain } from './helpers.js';

let bias: number = 1;
export function setBias(b: number): void { bias = b; }

export class Net {
  scale = gain;
  forward(x: number): number {
    return helpers.twice(x) * this.scale + bias;
  }
}

export const closure = (() => {
  const hidden: number = 42;
  return (x: number) => x + hidden + bias;
})();

export const gain: number = 3;
export function twice(x: number): number { return 2 * x; }

// The `infer_symbolic_shapes` pass: records the program's shape constraints (src/pir/symbolic_shapes.ts)
// as shape.tie_product_equal ops, so golden files and pipelines can ask for it by name.
import { inferSymbolicShapes } from '../pir/symbolic_shapes.js';
import { type Pass, registerPass } from './pass_manager.js';

export const inferSymbolicShapesPass = (): Pass => ({ name: 'infer_symbolic_shapes', run: inferSymbolicShapes });
registerPass('infer_symbolic_shapes', inferSymbolicShapesPass);

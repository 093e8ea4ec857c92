// paddle.inference: Config / create_predictor over a saved model (load.ts), with Paddle's
// handle-based API: get_input_handle(name).copy_from_cpu(data), run(),
// get_output_handle(name).copy_to_cpu(). The loaded model's executable keeps one plan per
// input-shape signature, so a second run at a seen shape reuses it.
import { to_tensor, type TensorData } from '../tensor/creation.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { readModel, resolveModelFiles, TranslatedLayer } from './load.js';

/**
 * Where the model is: `new Config(prefix)` (prefix.pir + prefix.pdiparams) or
 * `new Config('m.pir', 'm.pdiparams')`; Paddle's `m.pdmodel` (or a prefix with only a .pdmodel) is translated.
 */
export class Config {
  progFile: string;
  paramsFile: string;
  cpuThreads = 0;
  constructor(modelPathOrProg: string, paramsFile?: string) {
    if (typeof modelPathOrProg !== 'string' || !modelPathOrProg) throw new TypeError('paddle.inference.Config: give a model path prefix, a .pir or a .pdmodel file');
    const { file, pfile } = resolveModelFiles(modelPathOrProg, paramsFile);
    this.progFile = file;
    this.paramsFile = pfile;
  }
  set_model(prog: string, params: string): void { this.progFile = prog; this.paramsFile = params; }
  prog_file(): string { return this.progFile; }
  params_file(): string { return this.paramsFile; }
  /** Accepted for compatibility (the native thread pool is shared by the process). */
  set_cpu_math_library_num_threads(n: number): void { this.cpuThreads = n; }
  disable_gpu(): void {}
  enable_memory_optim(): void {}
  switch_ir_optim(_on = true): void {}
}

/** An input or output slot of a Predictor. */
export class PredictorHandle {
  /** @internal */ value: Tensor | null = null;
  constructor(readonly name: string, private readonly owner: Predictor, readonly isInput: boolean) {}

  /** Sets the input (a Tensor, typed array or nested array; a flat array is reshaped to reshape()'s shape). */
  copy_from_cpu(data: Tensor | TensorData): void {
    if (!this.isInput) throw new Error(`Predictor: '${this.name}' is an output; copy_from_cpu is for inputs`);
    const info = this.owner.layer.header.inputs.find((i) => i.name === this.name)!;
    let t = untracked(() => to_tensor(data as TensorData, info.dtype));
    if (this.pending && t.shape.length === 1 && this.pending.length !== 1) {
      const r = untracked(() => t.reshape(this.pending!));
      t.dispose();
      t = r;
    }
    this.value?.dispose();
    this.value = t;
  }
  private pending: number[] | null = null;
  /** The shape the next flat copy_from_cpu takes. */
  reshape(shape: readonly number[]): void { this.pending = [...shape]; }
  /** The output's values as a Tensor (a copy the caller owns). */
  copy_to_cpu(): Tensor {
    if (!this.value) throw new Error(`Predictor: '${this.name}' has no value${this.isInput ? '' : ' (call run() first)'}`);
    return untracked(() => to_tensor(this.value!));
  }
  shape(): number[] {
    if (!this.value) throw new Error(`Predictor: '${this.name}' has no value yet`);
    return [...this.value.shape];
  }
}

/** Runs a saved model through named handles (Paddle Inference's Predictor). */
export class Predictor {
  readonly layer: TranslatedLayer;
  private readonly inputs: Map<string, PredictorHandle>;
  private readonly outputs: Map<string, PredictorHandle>;
  constructor(readonly config: Config) {
    this.layer = new TranslatedLayer(readModel(config.progFile, config.paramsFile), config.progFile);
    this.inputs = new Map(this.layer.input_names.map((n) => [n, new PredictorHandle(n, this, true)]));
    this.outputs = new Map(this.layer.output_names.map((n) => [n, new PredictorHandle(n, this, false)]));
  }
  get_input_names(): string[] { return this.layer.input_names; }
  get_output_names(): string[] { return this.layer.output_names; }
  get_input_handle(name: string): PredictorHandle {
    const h = this.inputs.get(name);
    if (!h) throw new Error(`Predictor: no input named '${name}' (inputs: ${this.get_input_names().join(', ')})`);
    return h;
  }
  get_output_handle(name: string): PredictorHandle {
    const h = this.outputs.get(name);
    if (!h) throw new Error(`Predictor: no output named '${name}' (outputs: ${this.get_output_names().join(', ')})`);
    return h;
  }
  /** Runs on the inputs set with copy_from_cpu; results go to the output handles. */
  run(): boolean {
    const ins = this.get_input_names().map((n) => {
      const v = this.inputs.get(n)!.value;
      if (!v) throw new Error(`Predictor.run: input '${n}' is not set (get_input_handle('${n}').copy_from_cpu(...))`);
      return v;
    });
    const outs = untracked(() => this.layer.run(ins));
    this.get_output_names().forEach((n, i) => {
      const h = this.outputs.get(n)!;
      h.value?.dispose();
      h.value = outs[i];
    });
    return true;
  }
  /** Number of input-shape signatures compiled so far. */
  get planCount(): number { return this.layer.planCount; }
  dispose(): void {
    for (const h of [...this.inputs.values(), ...this.outputs.values()]) { h.value?.dispose(); h.value = null; }
    this.layer.dispose();
  }
}

export const create_predictor = (config: Config): Predictor => new Predictor(config);

/** The `paddle.inference` namespace. */
export const inferenceNamespace = { Config, create_predictor, Predictor };

// paddle.jit.save / load (save.ts, load.ts), Paddle's parameter file (pdiparams.ts) and
// paddle.inference's Config / create_predictor (predictor.ts).
import { load, ModelFileError, readModel, TranslatedLayer } from './load.js';
import { Config, create_predictor, Predictor } from './predictor.js';
import { capture, InputSpec, save } from './save.js';

export { capture, Config, create_predictor, InputSpec, load, ModelFileError, Predictor, readModel, save, TranslatedLayer };

/** Public names, nested into the paddle namespace by src/paddle.ts. */
export const jitPublic: Record<string, unknown> = {
  'jit.save': save, 'jit.load': load, 'jit.InputSpec': InputSpec, 'jit.TranslatedLayer': TranslatedLayer,
  'static.InputSpec': InputSpec,
  'inference.Config': Config, 'inference.create_predictor': create_predictor, 'inference.Predictor': Predictor,
};

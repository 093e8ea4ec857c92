"""paddle.inference: Config / create_predictor over a model saved by paddle.jit.save.

>>> config = paddle.inference.Config('out/lenet.pir', 'out/lenet.pdiparams')   # or Config('out/lenet')
>>> predictor = paddle.inference.create_predictor(config)
>>> h = predictor.get_input_handle(predictor.get_input_names()[0])
>>> h.copy_from_cpu(images)                     # a numpy array
>>> predictor.run()
>>> out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()

The model is compiled once; the executor keeps one plan per input-shape signature, so runs at a
shape already seen reuse it.
"""
from ..jit._save import load_files, model_files

__all__ = ['Config', 'create_predictor', 'Predictor', 'Tensor']


class Config:
    """Where the model is: Config(prefix), Config('m.pir', 'm.pdiparams'), Paddle's
    Config('m.pdmodel', 'm.pdiparams'), or set_model later."""

    def __init__(self, model_path=None, params_file=None):
        self._prog = self._params = None
        self._threads = 1
        if model_path is not None:
            self.set_model(*model_files(model_path, params_file))

    def set_model(self, prog_file, params_file):
        self._prog, self._params = prog_file, params_file

    def prog_file(self):
        return self._prog

    def params_file(self):
        return self._params

    def set_cpu_math_library_num_threads(self, n):
        self._threads = int(n)

    def cpu_math_library_num_threads(self):
        return self._threads

    # Accepted for compatibility: Skiff runs on the CPU and always optimizes the program.
    def disable_gpu(self):
        pass

    def enable_memory_optim(self, *a):
        pass

    def switch_ir_optim(self, on=True):
        pass

    def enable_mkldnn(self):
        pass

    def disable_glog_info(self):
        pass


class Tensor:
    """An input or output slot of a Predictor (Paddle Inference's handle)."""

    def __init__(self, name, predictor, is_input):
        self.name = name
        self._pred = predictor
        self._input = is_input
        self._value = None
        self._shape = None

    def reshape(self, shape):
        self._shape = list(shape)

    def copy_from_cpu(self, data):
        import paddle
        if not self._input:
            raise RuntimeError("Predictor: '%s' is an output; copy_from_cpu is for inputs" % self.name)
        info = self._pred._info[self.name]
        t = data if isinstance(data, paddle.Tensor) else paddle.to_tensor(data, dtype=info['dtype'])
        if self._shape is not None and list(t.shape) != self._shape:
            t = t.reshape(self._shape)
        self._value = t

    def copy_to_cpu(self):
        if self._value is None:
            raise RuntimeError("Predictor: '%s' has no value%s" % (self.name, '' if self._input else ' (call run() first)'))
        return self._value.numpy()

    def shape(self):
        if self._value is None:
            raise RuntimeError("Predictor: '%s' has no value yet" % self.name)
        return list(self._value.shape)

    def type(self):
        return self._pred._info[self.name]['dtype']


class Predictor:
    def __init__(self, config):
        if not isinstance(config, Config) or config.prog_file() is None:
            raise TypeError('create_predictor: expected a paddle.inference.Config with a model')
        self._layer = load_files(config.prog_file(), config.params_file())
        hdr = self._layer._header
        self._info = {i['name']: i for i in hdr['inputs'] + hdr['outputs']}
        self._inputs = {n: Tensor(n, self, True) for n in self._layer.input_names}
        self._outputs = {n: Tensor(n, self, False) for n in self._layer.output_names}

    def get_input_names(self):
        return list(self._layer.input_names)

    def get_output_names(self):
        return list(self._layer.output_names)

    def get_input_handle(self, name):
        if name not in self._inputs:
            raise ValueError("Predictor: no input named '%s' (inputs: %s)" % (name, ', '.join(self._inputs)))
        return self._inputs[name]

    def get_output_handle(self, name):
        if name not in self._outputs:
            raise ValueError("Predictor: no output named '%s' (outputs: %s)" % (name, ', '.join(self._outputs)))
        return self._outputs[name]

    def run(self, inputs=None):
        """Runs on the inputs set with copy_from_cpu (or a list of tensors, returning the outputs)."""
        if inputs is not None:
            return self._layer._run(list(inputs))
        vals = []
        for n, h in self._inputs.items():
            if h._value is None:
                raise RuntimeError("Predictor.run: input '%s' is not set (get_input_handle('%s').copy_from_cpu(...))" % (n, n))
            vals.append(h._value)
        for h, v in zip(self._outputs.values(), self._layer._run(vals)):
            h._value = v
        return True

    def _plan_count(self):
        return self._layer._plan_count()


def create_predictor(config):
    return Predictor(config)

"""paddle.nn.Layer and Parameter.

A Layer keeps parameters, sublayers and buffers in ordered dicts, filled by attribute
assignment as in Paddle; `layer(x)` runs forward pre-hooks, `forward`, then post-hooks.
"""
import collections
import re

from ... import framework
from ...dtype import dtype_of, get_default_dtype
from ...framework import ParamAttr, unique_name
from ...tensor import Tensor
from .. import initializer as I

# Bumped by every change a translated function's guards on layers rely on (attributes,
# sublayers, parameters, buffers, hooks, train/eval): paddle.jit compares one integer per call
# instead of re-reading attributes (compat/paddle/jit/sot/runtime.py).
STRUCTURE_VERSION = [0]
_LAST_VERSION = [0]
# States reachable from the last structural change by train()/eval() alone: layers whose mode
# differs from their mode at that change (id -> (layer, mode then)), and the version given to
# each such state. A model switched between train() and eval() every epoch returns to a state it
# has been in, and gets that state's version back, so to_static's translations for both modes
# stay valid instead of translating again after every switch (the version is all they guard of
# the layers' structure). The layers are held strongly: an id is never reused while it is a key.
_MODE_ORIGIN = {}
_MODE_VERSIONS = {frozenset(): 0}
# The mode the last Layer.train()/eval() set, process-wide like Paddle's tracer train mode
# (captured graphs record it: paddle.jit.sot.symbolic.compile_cache).
TRAIN_MODE = [True]


def _changed():
    _LAST_VERSION[0] += 1
    STRUCTURE_VERSION[0] = _LAST_VERSION[0]
    _MODE_ORIGIN.clear()
    _MODE_VERSIONS.clear()
    _MODE_VERSIONS[frozenset()] = STRUCTURE_VERSION[0]


def _mode_switched(flipped):
    """`flipped`: (layer, mode before) of each layer whose `training` a train()/eval() changed."""
    for layer, before in flipped:
        origin = _MODE_ORIGIN.get(id(layer))
        if origin is None:
            _MODE_ORIGIN[id(layer)] = (layer, before)
        elif origin[1] is layer.__dict__['training']:
            del _MODE_ORIGIN[id(layer)]
    state = frozenset((k, l.__dict__['training']) for k, (l, _) in _MODE_ORIGIN.items())
    v = _MODE_VERSIONS.get(state)
    if v is None:
        _LAST_VERSION[0] += 1
        v = _MODE_VERSIONS[state] = _LAST_VERSION[0]
    STRUCTURE_VERSION[0] = v


class Parameter(Tensor):
    """A trainable tensor owned by a Layer (Paddle's EagerParamBase): stop_gradient=False,
    persistable, with a unique name such as 'linear_0.w_0'."""

    def __init__(self, *a, **k):
        raise TypeError('create parameters with Layer.create_parameter or paddle.create_parameter')

    @classmethod
    def _adopt(cls, t, name=None, trainable=True):
        """Moves tensor t's handle into a new Parameter (t is left empty)."""
        p = object.__new__(cls)
        p._h, t._h = t._h, 0
        p._m = None
        p.trainable = trainable
        p.optimize_attr = {'learning_rate': 1.0}
        p.regularizer = None
        p.need_clip = True
        p.is_distributed = False
        p.stop_gradient = not trainable
        if name is not None:
            p._name = name
        return p

    @property
    def persistable(self):
        return True

    @property
    def trainable(self):
        return self.__dict__.get('_trainable', True)

    @trainable.setter
    def trainable(self, v):
        self.__dict__['_trainable'] = bool(v)
        if self._h:
            self.stop_gradient = not v

    def __repr__(self):
        from ..._format import to_string
        return 'Parameter containing:\n' + to_string(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        t = self.clone()
        return Parameter._adopt(t, self.name, self.trainable)


def create_parameter(shape, dtype=None, attr=None, is_bias=False, default_initializer=None, key='create_parameter'):
    """A Parameter of `shape`, initialised by attr.initializer, else default_initializer, else
    Paddle's defaults (Xavier-uniform for weights, zeros for biases)."""
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    dtype = dtype_of(dtype or get_default_dtype()).name
    init = attr.initializer or default_initializer or (I.Constant(0.0) if is_bias else I.XavierUniform())
    if isinstance(init, type):
        init = init()
    shape = [int(d) for d in shape]
    t = init.make(shape, dtype)
    if t.dtype != dtype:
        t = t.astype(dtype)
    name = attr.name or '%s.%s' % (unique_name(key), 'b_0' if is_bias else 'w_0')
    return Parameter._adopt(t, name, attr.trainable)


def _snake(name):
    return re.sub(r'(?<=[a-z0-9])([A-Z])', r'_\1', name).lower()


class Layer:
    """Base class of every layer.

    >>> class MLP(paddle.nn.Layer):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = paddle.nn.Linear(4, 2)
    ...     def forward(self, x):
    ...         return self.fc(x)
    """

    def __init__(self, name_scope=None, dtype='float32'):
        d = self.__dict__
        d['training'] = True
        d['_dtype'] = dtype
        d['_parameters'] = collections.OrderedDict()
        d['_sub_layers'] = collections.OrderedDict()
        d['_buffers'] = collections.OrderedDict()
        d['_non_persistable_buffer_names_set'] = set()
        d['_forward_pre_hooks'] = collections.OrderedDict()
        d['_forward_post_hooks'] = collections.OrderedDict()
        d['_hook_id'] = 0
        d['_full_name'] = unique_name(name_scope or _snake(type(self).__name__))
        d['_param_counters'] = {'w': 0, 'b': 0}

    # --- attribute routing ------------------------------------------------------------------
    def _check_init(self, what):
        if '_parameters' not in self.__dict__:
            raise RuntimeError('%s: call super().__init__() in %s.__init__ before assigning %s' % (type(self).__name__, type(self).__name__, what))

    def __setattr__(self, name, value):
        _changed()
        d = self.__dict__
        if isinstance(value, Parameter):
            self._check_init('parameters')
            self._remove(name)
            d['_parameters'][name] = value
        elif isinstance(value, Layer):
            self._check_init('sublayers')
            self._remove(name)
            d['_sub_layers'][name] = value
        elif '_parameters' in d and name in d['_parameters']:
            if value is not None:
                raise TypeError("cannot assign %s as parameter '%s' (a Parameter or None is required)" % (type(value).__name__, name))
            d['_parameters'][name] = None
        elif '_sub_layers' in d and name in d['_sub_layers']:
            if value is not None:
                raise TypeError("cannot assign %s as sublayer '%s' (a Layer or None is required)" % (type(value).__name__, name))
            d['_sub_layers'][name] = None
        elif '_buffers' in d and name in d['_buffers']:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError("cannot assign %s as buffer '%s' (a Tensor or None is required)" % (type(value).__name__, name))
            d['_buffers'][name] = value
        else:
            object.__setattr__(self, name, value)

    def _remove(self, name):
        d = self.__dict__
        d.pop(name, None)
        for k in ('_parameters', '_sub_layers', '_buffers'):
            if k in d:
                d[k].pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for k in ('_parameters', '_sub_layers', '_buffers'):
            store = d.get(k)
            if store is not None and name in store:
                return store[name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name):
        _changed()
        d = self.__dict__
        for k in ('_parameters', '_sub_layers', '_buffers'):
            if k in d and name in d[k]:
                del d[k][name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        d = self.__dict__
        return sorted(set(object.__dir__(self)) | set(d.get('_parameters', {})) | set(d.get('_sub_layers', {})) | set(d.get('_buffers', {})))

    # --- calling ------------------------------------------------------------------------------
    def __call__(self, *inputs, **kwargs):
        d = self.__dict__
        pre, post = d.get('_forward_pre_hooks'), d.get('_forward_post_hooks')
        if pre:
            for hook in list(pre.values()):
                r = hook(self, inputs)
                if r is not None:
                    inputs = r if isinstance(r, tuple) else (r,)
        out = self.forward(*inputs, **kwargs)
        if post:
            for hook in list(post.values()):
                r = hook(self, inputs, out)
                if r is not None:
                    out = r
        return out

    def forward(self, *inputs, **kwargs):
        raise NotImplementedError('%s.forward is not implemented' % type(self).__name__)

    def register_forward_pre_hook(self, hook):
        return self._add_hook(self._forward_pre_hooks, hook)

    def register_forward_post_hook(self, hook):
        return self._add_hook(self._forward_post_hooks, hook)

    def _add_hook(self, store, hook):
        _changed()
        hid = self._hook_id
        self.__dict__['_hook_id'] = hid + 1
        store[hid] = hook
        return _HookRemoveHelper(store, hid)

    # --- construction helpers --------------------------------------------------------------------
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False, default_initializer=None):
        key = 'b' if is_bias else 'w'
        n = self._param_counters[key]
        self._param_counters[key] = n + 1
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            return None
        if attr.name is None:
            attr = ParamAttr(name='%s.%s_%d' % (self._full_name, key, n), initializer=attr.initializer,
                             learning_rate=attr.learning_rate, regularizer=attr.regularizer, trainable=attr.trainable)
        return create_parameter(shape, dtype or self._dtype, attr, is_bias, default_initializer)

    def create_tensor(self, name=None, persistable=None, dtype=None):
        from ...creation import zeros
        return zeros([0], dtype or self._dtype)

    def add_parameter(self, name, parameter):
        _changed()
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError("add_parameter: '%s' must be a Parameter, got %s" % (name, type(parameter).__name__))
        self._check_init('parameters')
        self._remove(name)
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        _changed()
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError("add_sublayer: '%s' must be a Layer, got %s" % (name, type(sublayer).__name__))
        self._check_init('sublayers')
        self._remove(str(name))
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        _changed()
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError("register_buffer: '%s' must be a Tensor, got %s" % (name, type(tensor).__name__))
        self._check_init('buffers')
        self._remove(name)
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    # --- traversal --------------------------------------------------------------------------
    def named_sublayers(self, prefix='', include_self=False, layers_set=None):
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for name, layer in self._sub_layers.items():
            if layer is None or id(layer) in layers_set:
                continue
            p = prefix + ('.' if prefix else '') + name
            layers_set.add(id(layer))
            yield p, layer
            yield from layer.named_sublayers(p, False, layers_set)

    def sublayers(self, include_self=False):
        return [l for _, l in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        for _, l in self.named_children():
            yield l

    def named_parameters(self, prefix='', include_sublayers=True):
        seen = set()
        layers = self.named_sublayers(prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, p in layer._parameters.items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                yield lp + ('.' if lp else '') + name, p

    def clear_gradients(self, set_to_zero=True):
        """Zeroes (or, with set_to_zero=False, drops) the gradients of every parameter."""
        for p in self.parameters():
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    def parameters(self, include_sublayers=True):
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix='', include_sublayers=True):
        seen = set()
        layers = self.named_sublayers(prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, b in layer._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield lp + ('.' if lp else '') + name, b

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def full_name(self):
        return self._full_name

    # --- modes ------------------------------------------------------------------------------------
    def train(self):
        TRAIN_MODE[0] = True
        self._set_training(True)
        return self

    def eval(self):
        TRAIN_MODE[0] = False
        self._set_training(False)
        return self

    def _set_training(self, mode):
        # The structure version changes only when some layer's mode does: a model put in eval()
        # before every evaluation keeps its translations (to_static guards the version), and a
        # switch back to a mode state seen since the last structural change reuses its version.
        flipped = []
        for l in self.sublayers(include_self=True):
            d = l.__dict__
            if d.get('training') is not mode:
                flipped.append((l, d.get('training')))
                d['training'] = mode
        if flipped:
            _mode_switched(flipped)

    # --- state --------------------------------------------------------------------------------
    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix='', use_hook=True):
        """OrderedDict of structured names ('fc.weight') to parameters and persistable buffers."""
        dest = collections.OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                dest[structured_name_prefix + name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistable_buffer_names_set:
                dest[structured_name_prefix + name] = b
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer.state_dict(dest, True, structured_name_prefix + name + '.')
        return dest

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copies values into parameters and buffers; returns (missing_keys, unexpected_keys)."""
        own = self.state_dict()
        if not use_structured_name:
            own = collections.OrderedDict((t.name, t) for t in own.values())
        missing, unexpected = [], []
        for key, target in own.items():
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            shape = list(value.shape) if hasattr(value, 'shape') else _shape_of(value)
            if list(shape) != target.shape:
                raise ValueError("set_state_dict: '%s' has shape %s in the state dict but %s in the layer" % (key, list(shape), target.shape))
            target.set_value(value)
        for key in state_dict:
            if key not in own:
                unexpected.append(key)
        return missing, unexpected

    load_dict = set_state_dict
    set_dict = set_state_dict

    # --- dtype / device -------------------------------------------------------------------------------
    def to(self, device=None, dtype=None, blocking=None):
        if device is not None and not isinstance(device, str) and not hasattr(device, 'is_cpu_place'):
            dtype, device = device, None
        if device is not None:
            framework.set_device(device if isinstance(device, str) else 'cpu')
        if dtype is not None:
            self._cast_all(dtype)
        return self

    def _cast_all(self, dtype):
        dt = dtype_of(dtype)
        for layer in self.sublayers(include_self=True):
            for name, p in list(layer._parameters.items()):
                if p is not None and p.dtype.kind == 'f' and p.dtype != dt:
                    _retype(p, dt)
            for name, b in list(layer._buffers.items()):
                if b is not None and b.dtype.kind == 'f' and b.dtype != dt:
                    layer._buffers[name] = b.astype(dt)
            layer.__dict__['_dtype'] = dt.name

    def astype(self, dtype):
        self._cast_all(dtype)
        return self

    def float(self):
        return self.astype('float32')

    def double(self):
        return self.astype('float64')

    def half(self):
        return self.astype('float16')

    def bfloat16(self):
        return self.astype('bfloat16')

    # --- printing ---------------------------------------------------------------------------------
    def extra_repr(self):
        return ''

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split('\n')
        children = []
        for name, layer in self._sub_layers.items():
            s = repr(layer).replace('\n', '\n  ')
            children.append('(%s): %s' % (name, s))
        body = lines + children
        if not body:
            return type(self).__name__ + '()'
        if len(body) == 1 and not children:
            return '%s(%s)' % (type(self).__name__, body[0])
        return type(self).__name__ + '(\n  ' + '\n  '.join(body) + '\n)'


def _retype(p, dt):
    t = p.astype(dt)
    old, p._h, t._h = p._h, t._h, 0
    from ..._bridge import release
    release(old)
    sg = p.stop_gradient
    p._m = None
    p.stop_gradient = sg


def _shape_of(v):
    shape = []
    while isinstance(v, (list, tuple)):
        shape.append(len(v))
        v = v[0] if v else None
    return shape


class _HookRemoveHelper:
    def __init__(self, store, hid):
        self._store, self._id = store, hid

    def remove(self):
        _changed()
        self._store.pop(self._id, None)

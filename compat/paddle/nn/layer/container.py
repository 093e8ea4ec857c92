"""Sequential, LayerList, LayerDict."""
import collections

from .layers import Layer


class Sequential(Layer):
    """Sequential(l1, l2, ...) or Sequential(('name', l1), ...) or Sequential(OrderedDict)."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], (dict, collections.OrderedDict)):
            layers = tuple(layers[0].items())
        if layers and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return self.__class__(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        keys = list(self._sub_layers)
        if not -len(keys) <= name < len(keys):
            raise IndexError('index %d is out of range for Sequential of length %d' % (name, len(keys)))
        return self._sub_layers[keys[name]]

    def __setitem__(self, name, layer):
        keys = list(self._sub_layers)
        key = name if isinstance(name, str) else keys[name]
        self._sub_layers[key] = layer

    def __delitem__(self, name):
        keys = list(self._sub_layers)
        del self._sub_layers[name if isinstance(name, str) else keys[name]]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, layer):
        self.add_sublayer(str(len(self._sub_layers)), layer)
        return self

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class LayerList(Layer):
    def __init__(self, sublayers=None):
        super().__init__()
        for i, layer in enumerate(sublayers or []):
            self.add_sublayer(str(i), layer)

    def _index(self, idx):
        n = len(self._sub_layers)
        if not -n <= idx < n:
            raise IndexError('index %d is out of range for LayerList of length %d' % (idx, n))
        return str(idx + n if idx < 0 else idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._sub_layers.values())[idx])
        return self._sub_layers[self._index(idx)]

    def __setitem__(self, idx, layer):
        self._sub_layers[self._index(idx)] = layer

    def __delitem__(self, idx):
        layers = list(self._sub_layers.values())
        del layers[idx]
        self._sub_layers.clear()
        for i, l in enumerate(layers):
            self._sub_layers[str(i)] = l

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer):
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._sub_layers.clear()
        for i, l in enumerate(layers):
            self._sub_layers[str(i)] = l

    def extend(self, sublayers):
        for l in sublayers:
            self.append(l)
        return self


class LayerDict(Layer):
    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, layer):
        self.add_sublayer(key, layer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def keys(self):
        return self._sub_layers.keys()

    def values(self):
        return self._sub_layers.values()

    def items(self):
        return self._sub_layers.items()

    def update(self, sublayers):
        items = sublayers.items() if isinstance(sublayers, dict) else sublayers
        for k, l in items:
            self.add_sublayer(k, l)

"""Shared by the zoo's factories: Skiff ships no weights and downloads nothing."""


def no_pretrained(arch, pretrained):
    if pretrained:
        raise NotImplementedError(
            '%s(pretrained=True): Skiff does not download weights; build the model with pretrained=False and '
            'load a PaddlePaddle state dict with model.set_state_dict(paddle.load(path))' % arch)

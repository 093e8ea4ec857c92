"""Eager MLP inference, written as a Paddle user would: build a small classifier from
paddle.nn layers, seed it, feed a batch and print the predicted classes.

    skiff run models/mlp_infer.py [--batch N]
"""
import argparse

import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class MLP(nn.Layer):
    def __init__(self, in_features=8, hidden=16, classes=4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, classes),
        )

    def forward(self, x):
        return self.net(x)


def make_batch(n, features):
    # a deterministic batch: no data files needed
    return [[((i * features + j) % 7) / 7.0 - 0.5 for j in range(features)] for i in range(n)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, default=4)
    args = parser.parse_args()

    paddle.seed(2024)
    paddle.set_device('cpu')
    model = MLP()
    model.eval()
    print(model)

    x = paddle.to_tensor(make_batch(args.batch, 8), dtype='float32')
    with paddle.no_grad():
        logits = model(x)
    probs = F.softmax(logits, axis=-1)
    pred = paddle.argmax(probs, axis=-1)

    print('input:', x.shape, x.dtype)
    print('logits:', logits)
    print('predicted classes:', pred.tolist())
    print('confidence:', [round(p, 4) for p in paddle.max(probs, axis=-1).tolist()])
    print('parameters:', sum(p.size for p in model.parameters()))


if __name__ == '__main__':
    main()

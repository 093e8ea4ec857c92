"""LeNet with paddle.vision.models' structure and parameter names (features.0, fc.0, ...), so
Paddle state dicts of LeNet load."""
from ... import nn


class LeNet(nn.Layer):
    """Two conv + max-pool stages, then three linear layers; input [N, 1, 28, 28].

    num_classes <= 0 leaves out the classifier (forward returns the feature maps)."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = x.flatten(1)
            x = self.fc(x)
        return x

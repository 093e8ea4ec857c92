"""paddle.jit.sot.opcode_translator: Paddle's module path; Skiff's translator lives in TypeScript
(frontend/python/sot), this package only holds the Python-visible cache handle."""

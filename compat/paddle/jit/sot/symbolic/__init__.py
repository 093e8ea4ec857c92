"""paddle.jit.sot.symbolic: Paddle's module path for the translator's compiled graphs
(compile_cache.CompileSIRCache)."""

{
  # Sources are discovered, not listed: a kernel file added to native/src or
  # native/kernels is built and self-registers (SKIFF_KERNEL), so adding an op
  # never edits this file. GEMM lives in its own target because it alone may
  # use -ffast-math (elsewhere it breaks isnan/isinf and NaN propagation).
  "targets": [
    {
      "target_name": "skiff_gemm",
      "type": "static_library",
      "sources": ["<!@(node scripts/list_sources.cjs native/gemm)"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/src"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-O3", "-march=native", "-std=c++17", "-ffast-math", "-fPIC", "-fexceptions"],
      "cflags": ["-O3", "-march=native", "-fPIC"]
    },
    {
      "target_name": "skiff_native",
      "dependencies": ["skiff_gemm"],
      "sources": ["<!@(node scripts/list_sources.cjs native/src native/kernels)"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/src"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-O3", "-march=native", "-std=c++17", "-fexceptions", "-Wall", "-Wno-unused-function", "-Wno-unused-variable"],
      "cflags": ["-O3", "-march=native"],
      "ldflags": ["-pthread"]
    }
  ]
}

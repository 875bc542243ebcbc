# The N-API addon. Built by `make node` (node-gyp), which passes the node-addon-api headers'
# folder as NODE_ADDON_API_DIR (Debian's package where it is installed, else its files taken
# from the package into build/node/deps) and the checkout's include/ as PAYWIRE_INCLUDE_DIR.
# The npm tarball (make dist) carries the addon built here, not this file: installing the
# package compiles nothing. libpaywire is not linked here: src/library.cc opens it at load time
# by the same rules as the Python and JVM bindings (PAYWIRE_LIBRARY first).
{
  "variables": {
    "node_addon_api_dir%": "<!(echo ${NODE_ADDON_API_DIR:-$(node -p \"require('node-addon-api').include_dir\")})",
    "paywire_include_dir%": "<!(echo ${PAYWIRE_INCLUDE_DIR:-$(pkg-config --variable=includedir paywire 2>/dev/null || echo ../../include)})"
  },
  "targets": [{
    "target_name": "paywire",
    "sources": ["src/addon.cc", "src/library.cc", "src/sink.cc"],
    "include_dirs": ["<(node_addon_api_dir)", "<(paywire_include_dir)"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "-Werror"],
    "libraries": ["-ldl"]
  }]
}

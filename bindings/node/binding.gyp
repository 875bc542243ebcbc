# The N-API addon. Built by `make node` (node-gyp), which passes the node-addon-api headers'
# folder as NODE_ADDON_API_DIR: Debian's package where it is installed, else its files taken
# from the package into build/node/deps. libpaywire is not linked here: src/library.cc opens it
# at load time by the same rules as the Python and JVM bindings (PAYWIRE_LIBRARY first).
{
  "variables": {"node_addon_api_dir%": "<!(echo $NODE_ADDON_API_DIR)"},
  "targets": [{
    "target_name": "paywire",
    "sources": ["src/addon.cc", "src/library.cc", "src/sink.cc"],
    "include_dirs": ["<(node_addon_api_dir)", "../../include"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "-Werror"],
    "libraries": ["-ldl"]
  }]
}

#include "library.h"

#include <dlfcn.h>

#include <mutex>

namespace paywire_node {
namespace {

std::mutex load_mutex;
Library table;
const Library *loaded = nullptr;
std::string loaded_from;

template <typename F>
bool Bind(void *handle, const char *name, F *slot, std::string *missing) {
  void *symbol = dlsym(handle, name);
  if (symbol == nullptr) {
    *missing = name;
    return false;
  }
  *slot = reinterpret_cast<F>(symbol);
  return true;
}

bool BindAll(void *handle, Library *lib, std::string *missing) {
  return Bind(handle, "paywire_abi_version", &lib->abi_version, missing) &&
         Bind(handle, "paywire_version", &lib->version, missing) &&
         Bind(handle, "paywire_status_name", &lib->status_name, missing) &&
         Bind(handle, "paywire_string_free", &lib->string_free, missing) &&
         Bind(handle, "paywire_client_new", &lib->client_new, missing) &&
         Bind(handle, "paywire_client_free", &lib->client_free, missing) &&
         Bind(handle, "paywire_client_call", &lib->client_call, missing) &&
         Bind(handle, "paywire_client_call_async", &lib->client_call_async, missing) &&
         Bind(handle, "paywire_client_set_event_handler", &lib->client_set_event_handler, missing) &&
         Bind(handle, "paywire_client_poll", &lib->client_poll, missing);
}

// One candidate: true when it is loaded and fits; otherwise appends why not to `tried`.
bool TryOne(const std::string &path, std::string *tried) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *why = dlerror();
    *tried += "; " + path + " (" + (why ? why : "not loadable") + ")";
    return false;
  }
  Library candidate{};
  std::string missing;
  if (!BindAll(handle, &candidate, &missing)) {
    *tried += "; " + path + " (no symbol " + missing + ")";
    dlclose(handle);
    return false;
  }
  uint32_t abi = candidate.abi_version();
  if (abi != PAYWIRE_ABI_VERSION) {
    // A library of another ABI is an error to report, not a reason to look further: the
    // first one found is the one the host meant (as in the Python binding).
    *tried = path + " has ABI " + std::to_string(abi) + ", this binding needs ABI " +
             std::to_string(PAYWIRE_ABI_VERSION);
    dlclose(handle);
    return false;
  }
  table = candidate;
  loaded = &table;
  loaded_from = path;
  return true;
}

}  // namespace

const Library *LoadLibrary(const std::vector<std::string> &candidates, std::string *loaded_path,
                           std::string *error) {
  std::lock_guard<std::mutex> lock(load_mutex);
  if (loaded == nullptr) {
    std::string tried;
    for (const std::string &path : candidates) {
      if (TryOne(path, &tried)) break;
      if (tried.find(" has ABI ") != std::string::npos) {
        *error = tried;
        return nullptr;
      }
    }
    if (loaded == nullptr) {
      *error = "libpaywire not found: install libpaywire1, build it (make lib), or set "
               "PAYWIRE_LIBRARY. Tried:" + (tried.empty() ? std::string(" nothing") : tried.substr(1));
      return nullptr;
    }
  }
  *loaded_path = loaded_from;
  return loaded;
}

const Library *Loaded() {
  std::lock_guard<std::mutex> lock(load_mutex);
  return loaded;
}

}  // namespace paywire_node

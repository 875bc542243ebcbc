// The C ABI of libpaywire as a table of function pointers, filled by dlopen at load time (not
// linked): the binding finds the library by the same rules as the Python and JVM bindings, and
// reports every path it tried when none fits.
#pragma once

#include <string>
#include <vector>

#include "paywire.h"

namespace paywire_node {

struct Library {
  uint32_t (*abi_version)(void);
  const char *(*version)(void);
  const char *(*status_name)(paywire_status_t);
  void (*string_free)(char *);
  paywire_status_t (*client_new)(const char *, paywire_client_t **, char **);
  void (*client_free)(paywire_client_t *);
  paywire_status_t (*client_call)(paywire_client_t *, const char *, const char *, char **);
  paywire_status_t (*client_call_async)(paywire_client_t *, const char *, const char *, uint64_t *);
  paywire_status_t (*client_set_event_handler)(paywire_client_t *, paywire_event_fn, void *, paywire_free_fn);
  paywire_status_t (*client_poll)(paywire_client_t *, int32_t, char **);
};

// Opens the first candidate that loads, has every symbol and the ABI this addon was built for
// (PAYWIRE_ABI_VERSION). Returns nullptr and fills `error` with every attempt otherwise. Once
// loaded, later calls return the same table: the library is never unloaded.
const Library *LoadLibrary(const std::vector<std::string> &candidates, std::string *loaded_path,
                           std::string *error);

// The loaded table, or nullptr before LoadLibrary succeeded.
const Library *Loaded();

}  // namespace paywire_node

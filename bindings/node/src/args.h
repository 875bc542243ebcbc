// Conversions shared by the addon's functions: JS arguments to C arguments, C results to JS.
#pragma once

#include <napi.h>

#include <cstdint>
#include <optional>
#include <string>

#include "library.h"

namespace paywire_node {

// The loaded library, or nullptr with a JS exception thrown (load() was not called first).
inline const Library *RequireLibrary(Napi::Env env) {
  const Library *lib = Loaded();
  if (lib == nullptr) Napi::Error::New(env, "libpaywire is not loaded").ThrowAsJavaScriptException();
  return lib;
}

// A client reference: a bigint or number is an address, anything else NULL. Addresses that are
// not clients are passed on as they are: the library answers them with INVALID_HANDLE.
inline paywire_client_t *HandleArg(const Napi::Value &value) {
  uint64_t address = 0;
  if (value.IsBigInt()) {
    bool lossless = false;
    address = value.As<Napi::BigInt>().Uint64Value(&lossless);
  } else if (value.IsNumber()) {
    address = static_cast<uint64_t>(value.As<Napi::Number>().Int64Value());
  }
  return reinterpret_cast<paywire_client_t *>(static_cast<uintptr_t>(address));
}

// A string argument: a Buffer passes its bytes (possibly invalid UTF-8, as the conformance
// kit sends them), a string its UTF-8, null or undefined a NULL pointer.
inline std::optional<std::string> TextArg(const Napi::Value &value) {
  if (value.IsBuffer()) {
    auto buffer = value.As<Napi::Buffer<char>>();
    return std::string(buffer.Data(), buffer.Length());
  }
  if (value.IsString()) return value.As<Napi::String>().Utf8Value();
  return std::nullopt;
}

inline const char *CString(const std::optional<std::string> &text) {
  return text ? text->c_str() : nullptr;
}

// A string the library returned, copied into JS and given back to paywire_string_free at
// once; null for NULL.
inline Napi::Value TakeString(Napi::Env env, const Library *lib, char *text) {
  if (text == nullptr) return env.Null();
  Napi::Value copy = Napi::String::New(env, text);
  lib->string_free(text);
  return copy;
}

}  // namespace paywire_node

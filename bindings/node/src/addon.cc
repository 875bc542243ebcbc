// The addon's raw layer: one JS function per C function, close to the C ABI so that the
// conformance runner can pass NULL pointers, raw bytes and made-up handles. lib/index.js builds
// the Client on it; hosts use the Client.
#include <napi.h>

#include "args.h"
#include "library.h"
#include "sink.h"

namespace paywire_node {
namespace {

// load(candidates: string[]) -> the path loaded; throws naming every path tried.
Napi::Value Load(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<std::string> candidates;
  if (info[0].IsArray()) {
    Napi::Array list = info[0].As<Napi::Array>();
    for (uint32_t i = 0; i < list.Length(); i++) {
      Napi::Value item = list.Get(i);
      if (item.IsString()) candidates.push_back(item.As<Napi::String>().Utf8Value());
    }
  }
  std::string path, error;
  if (LoadLibrary(candidates, &path, &error) == nullptr) {
    Napi::Error failure = Napi::Error::New(env, error);
    failure.Set("code", Napi::String::New(env, "library_not_found"));
    failure.ThrowAsJavaScriptException();
    return env.Null();
  }
  return Napi::String::New(env, path);
}

Napi::Value AbiVersion(const Napi::CallbackInfo &info) {
  const Library *lib = RequireLibrary(info.Env());
  return lib ? Napi::Number::New(info.Env(), lib->abi_version()) : info.Env().Null();
}

Napi::Value Version(const Napi::CallbackInfo &info) {
  const Library *lib = RequireLibrary(info.Env());
  return lib ? Napi::String::New(info.Env(), lib->version()) : info.Env().Null();
}

Napi::Value StatusName(const Napi::CallbackInfo &info) {
  const Library *lib = RequireLibrary(info.Env());
  if (lib == nullptr) return info.Env().Null();
  int32_t status = info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 0;
  return Napi::String::New(info.Env(), lib->status_name(status));
}

// {status, text} with text the out string (null when the library returned none).
Napi::Object Reply(Napi::Env env, const Library *lib, paywire_status_t status, char *text) {
  Napi::Object reply = Napi::Object::New(env);
  reply.Set("status", Napi::Number::New(env, status));
  reply.Set("text", TakeString(env, lib, text));
  return reply;
}

// clientNew(config, nullOutClient?) -> {status, text, handle: bigint (0n for none)}
Napi::Value ClientNew(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  const Library *lib = RequireLibrary(env);
  if (lib == nullptr) return env.Null();
  std::optional<std::string> config = TextArg(info[0]);
  bool null_out_client = info[1].ToBoolean().Value();
  paywire_client_t *client = nullptr;
  char *text = nullptr;
  paywire_status_t status = lib->client_new(CString(config), null_out_client ? nullptr : &client, &text);
  Napi::Object reply = Reply(env, lib, status, text);
  reply.Set("handle", Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(client))));
  return reply;
}

Napi::Value ClientFree(const Napi::CallbackInfo &info) {
  const Library *lib = RequireLibrary(info.Env());
  if (lib != nullptr) lib->client_free(HandleArg(info[0]));
  return info.Env().Undefined();
}

// call(handle, method, params, nullOutJson?) -> {status, text}
Napi::Value Call(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  const Library *lib = RequireLibrary(env);
  if (lib == nullptr) return env.Null();
  std::optional<std::string> method = TextArg(info[1]);
  std::optional<std::string> params = TextArg(info[2]);
  bool null_out_json = info[3].ToBoolean().Value();
  char *text = nullptr;
  paywire_status_t status =
      lib->client_call(HandleArg(info[0]), CString(method), CString(params), null_out_json ? nullptr : &text);
  return Reply(env, lib, status, text);
}

// callAsync(handle, method, params, nullOutCallId?) -> {status, callId: bigint}
Napi::Value CallAsync(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  const Library *lib = RequireLibrary(env);
  if (lib == nullptr) return env.Null();
  std::optional<std::string> method = TextArg(info[1]);
  std::optional<std::string> params = TextArg(info[2]);
  bool null_out_call_id = info[3].ToBoolean().Value();
  uint64_t call_id = 0;
  paywire_status_t status = lib->client_call_async(HandleArg(info[0]), CString(method), CString(params),
                                                   null_out_call_id ? nullptr : &call_id);
  Napi::Object reply = Napi::Object::New(env);
  reply.Set("status", Napi::Number::New(env, status));
  reply.Set("callId", Napi::BigInt::New(env, call_id));
  return reply;
}

// poll(handle, timeoutMs) -> {status, text}. Blocks this thread up to timeoutMs.
Napi::Value Poll(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  const Library *lib = RequireLibrary(env);
  if (lib == nullptr) return env.Null();
  int32_t timeout_ms = info[1].IsNumber() ? info[1].As<Napi::Number>().Int32Value() : 0;
  char *text = nullptr;
  paywire_status_t status = lib->client_poll(HandleArg(info[0]), timeout_ms, &text);
  return Reply(env, lib, status, text);
}

Napi::Value StringFreeNull(const Napi::CallbackInfo &info) {
  const Library *lib = RequireLibrary(info.Env());
  if (lib != nullptr) lib->string_free(nullptr);
  return info.Env().Undefined();
}

// A real heap address that is not a client, for the conformance kit's `made_up_heap`.
Napi::Value MadeUpHeap(const Napi::CallbackInfo &info) {
  static char not_a_client[64];
  return Napi::BigInt::New(info.Env(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(not_a_client)));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("headerAbiVersion", Napi::Number::New(env, PAYWIRE_ABI_VERSION));
  exports.Set("load", Napi::Function::New(env, Load));
  exports.Set("abiVersion", Napi::Function::New(env, AbiVersion));
  exports.Set("version", Napi::Function::New(env, Version));
  exports.Set("statusName", Napi::Function::New(env, StatusName));
  exports.Set("clientNew", Napi::Function::New(env, ClientNew));
  exports.Set("clientFree", Napi::Function::New(env, ClientFree));
  exports.Set("call", Napi::Function::New(env, Call));
  exports.Set("callAsync", Napi::Function::New(env, CallAsync));
  exports.Set("poll", Napi::Function::New(env, Poll));
  exports.Set("setEventHandler", Napi::Function::New(env, SetEventHandler));
  exports.Set("stringFreeNull", Napi::Function::New(env, StringFreeNull));
  exports.Set("madeUpHeap", Napi::Function::New(env, MadeUpHeap));
  exports.Set("EventSink", EventSink::Define(env));
  return exports;
}

}  // namespace
}  // namespace paywire_node

static Napi::Object InitModule(Napi::Env env, Napi::Object exports) { return paywire_node::Init(env, exports); }

NODE_API_MODULE(paywire, InitModule)

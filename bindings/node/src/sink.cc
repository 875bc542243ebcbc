#include "sink.h"

#include <string>

#include "args.h"

namespace paywire_node {
namespace {

// Called by the TSFN on the main thread, in queue order: hands one event's text to JS. Raw
// napi calls: node-addon-api's Call turns a failure into a throw, which is fatal while the
// environment is torn down; a listener's own exception stays pending and node reports it as
// uncaught, as for any callback.
void Deliver(Napi::Env env, Napi::Function callback, std::string *event) {
  if (env != nullptr && callback != nullptr) {
    napi_value text = nullptr, receiver = nullptr;
    if (napi_create_string_utf8(env, event->data(), event->size(), &text) == napi_ok &&
        napi_get_undefined(env, &receiver) == napi_ok) {
      napi_call_function(env, receiver, callback, 1, &text, nullptr);
    }
  }
  delete event;
}

// The library's event handler, on its delivery thread. The event is borrowed until we return,
// so it is copied. NonBlockingCall on an unbounded queue never waits for the JS thread: a busy
// or blocked event loop (a sync call, a long poll) must not stall the library's delivery, and
// the library's own bounded queue already limits what can pile up before reaching us.
void OnEvent(const char *event_json, void *user_data) {
  auto &state = *static_cast<std::shared_ptr<SinkState> *>(user_data);
  std::lock_guard<std::mutex> lock(state->mutex);
  if (state->finalized) return;  // the environment is gone: nobody is left to hear it
  auto *copy = new std::string(event_json != nullptr ? event_json : "");
  if (state->tsfn.NonBlockingCall(copy, Deliver) != napi_ok) delete copy;  // closing
}

// user_data_free: the library is done with this handler (replaced, removed, client freed).
// Events already queued still reach JS; then the TSFN finalizes and tells JS it drained.
void OnFree(void *user_data) {
  auto *state = static_cast<std::shared_ptr<SinkState> *>(user_data);
  {
    std::lock_guard<std::mutex> lock((*state)->mutex);
    (*state)->released.store(true);
    if (!(*state)->finalized) (*state)->tsfn.Release();
  }
  delete state;
}

// On the main thread once the TSFN has delivered everything and is released.
void Finalize(Napi::Env env, void * /*data*/, std::shared_ptr<SinkState> *context) {
  std::shared_ptr<SinkState> state = *context;
  delete context;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->finalized = true;
  }
  if (state->on_drained.IsEmpty()) return;
  Napi::Function drained = state->on_drained.Value();
  state->on_drained.Reset();
  napi_value receiver = nullptr, ignored = nullptr;
  // Raw napi, as in Deliver; a throw must not escape a finalizer (it may run at teardown).
  if (napi_get_undefined(env, &receiver) == napi_ok &&
      napi_call_function(env, receiver, drained, 0, nullptr, &ignored) == napi_pending_exception) {
    napi_value exception = nullptr;
    napi_get_and_clear_last_exception(env, &exception);
  }
}

bool Finalized(SinkState &state) {
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.finalized;
}

Napi::FunctionReference *Constructor(Napi::Env env) { return env.GetInstanceData<Napi::FunctionReference>(); }

}  // namespace

Napi::Function EventSink::Define(Napi::Env env) {
  Napi::Function sink = DefineClass(env, "EventSink",
                                    {InstanceMethod("released", &EventSink::Released),
                                     InstanceMethod("ref", &EventSink::Ref), InstanceMethod("unref", &EventSink::Unref)});
  env.SetInstanceData(new Napi::FunctionReference(Napi::Persistent(sink)));
  return sink;
}

EventSink::EventSink(const Napi::CallbackInfo &info) : Napi::ObjectWrap<EventSink>(info) {}

Napi::Value EventSink::Released(const Napi::CallbackInfo &info) {
  return Napi::Boolean::New(info.Env(), state_ == nullptr || state_->released.load());
}

// ref()/unref(): whether pending work on this handler keeps the event loop alive. The Client
// refs it while async calls are outstanding, so `await client.callAsync(...)` cannot end the
// process early, and unrefs it otherwise, so an open client never holds a finished program.
Napi::Value EventSink::Ref(const Napi::CallbackInfo &info) {
  if (state_ != nullptr && !Finalized(*state_) && !state_->referenced) {
    state_->tsfn.Ref(info.Env());
    state_->referenced = true;
  }
  return info.Env().Undefined();
}

Napi::Value EventSink::Unref(const Napi::CallbackInfo &info) {
  if (state_ != nullptr && !Finalized(*state_) && state_->referenced) {
    state_->tsfn.Unref(info.Env());
    state_->referenced = false;
  }
  return info.Env().Undefined();
}

Napi::Value SetEventHandler(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  const Library *lib = RequireLibrary(env);
  if (lib == nullptr) return env.Null();
  paywire_client_t *client = HandleArg(info[0]);
  Napi::Object reply = Napi::Object::New(env);
  reply.Set("sink", env.Null());
  if (!info[1].IsFunction()) {  // back to poll mode
    reply.Set("status", Napi::Number::New(env, lib->client_set_event_handler(client, nullptr, nullptr, nullptr)));
    return reply;
  }
  auto state = std::make_shared<SinkState>();
  if (info[2].IsFunction()) state->on_drained = Napi::Persistent(info[2].As<Napi::Function>());
  state->tsfn = Napi::ThreadSafeFunction::New(env, info[1].As<Napi::Function>(), "paywire.events", size_t{0}, size_t{1},
                                              new std::shared_ptr<SinkState>(state), Finalize,
                                              static_cast<void *>(nullptr));
  auto *user_data = new std::shared_ptr<SinkState>(state);
  paywire_status_t status = lib->client_set_event_handler(client, OnEvent, user_data, OnFree);
  // Refused (bad handle, called from the handler): the library did not take user_data.
  if (status != PAYWIRE_OK) OnFree(user_data);
  Napi::Object sink = Constructor(env)->New({});
  EventSink::Unwrap(sink)->Attach(state);
  reply.Set("status", Napi::Number::New(env, status));
  reply.Set("sink", sink);
  return reply;
}

}  // namespace paywire_node

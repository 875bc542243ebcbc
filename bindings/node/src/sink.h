// An event handler of one client: the library's delivery thread hands each event to a
// Napi::ThreadSafeFunction, which calls the JS callback on the main thread, in order.
#pragma once

#include <napi.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "library.h"

namespace paywire_node {

// What the C side (user_data), the JS EventSink object and the TSFN finalizer share. The JS
// callbacks are touched on the main thread only; `released` is set from any thread.
struct SinkState {
  Napi::ThreadSafeFunction tsfn;
  Napi::FunctionReference on_drained;  // called once every queued event was delivered
  std::atomic<bool> released{false};   // the library called user_data_free (or we did)
  // Node deletes a TSFN when its environment is torn down (the process exits with the client
  // still open) even while the library's thread may still hold it: `finalized`, set by the
  // finalizer under `mutex`, is checked under it before every use from another thread.
  std::mutex mutex;
  bool finalized = false;
  bool referenced = true;              // main thread only: keeps the event loop alive
};

// The JS object setEventHandler returns: `released()`, `ref()`, `unref()`.
class EventSink : public Napi::ObjectWrap<EventSink> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit EventSink(const Napi::CallbackInfo &info);
  void Attach(std::shared_ptr<SinkState> state) { state_ = std::move(state); }

 private:
  Napi::Value Released(const Napi::CallbackInfo &info);
  Napi::Value Ref(const Napi::CallbackInfo &info);
  Napi::Value Unref(const Napi::CallbackInfo &info);
  std::shared_ptr<SinkState> state_;
};

// setEventHandler(handle, onEvent | null, onDrained?) -> {status, sink}
Napi::Value SetEventHandler(const Napi::CallbackInfo &info);

}  // namespace paywire_node

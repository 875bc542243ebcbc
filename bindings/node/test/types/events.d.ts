// The part of node's `events` module the declarations use (TypedMethods extends EventEmitter).
// A TypeScript host has it from @types/node; the build machines have no @types/node (Debian 12
// does not package it, and no npm registry is reached), so this stands in for it, with the
// signatures @types/node gives these members.
declare module 'events' {
  export class EventEmitter {
    on(eventName: string | symbol, listener: (...args: any[]) => void): this;
    once(eventName: string | symbol, listener: (...args: any[]) => void): this;
    off(eventName: string | symbol, listener: (...args: any[]) => void): this;
    emit(eventName: string | symbol, ...args: any[]): boolean;
    removeAllListeners(event?: string | symbol): this;
    listenerCount(eventName: string | symbol): number;
  }
}

using System;
using System.Collections.Concurrent;
using System.Threading;

namespace Paywire
{
    /// <summary>
    /// Marks a static method a native library calls back. Unity's IL2CPP and Xamarin's AOT find
    /// it by name (any namespace) and generate the reverse-P/Invoke stub it needs ahead of time.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type delegateType) { DelegateType = delegateType; }
        public Type DelegateType { get; private set; }
    }

    /// <summary>
    /// The one pair of native callbacks this binding ever hands to the library, and the handlers
    /// they dispatch to.
    /// </summary>
    /// <remarks>
    /// A delegate marshalled to a function pointer is only valid while the delegate is reachable;
    /// a library thread calling a collected one crashes the process. So the callbacks are two static
    /// delegates over static methods, alive for the process, and what differs per handler travels as
    /// user_data: a token naming a registered <see cref="IHandler"/>. A handler stays registered until
    /// the library calls user_data_free for its token, which paywire.h promises exactly once, after
    /// the last event it delivers to it.
    ///
    /// This is the library's own handler path: the conformance runner drives it, and a host may use
    /// it where its runtime detaches foreign threads safely. <see cref="Client"/> polls from a thread
    /// of its own instead (<see cref="EventPump"/> says why).
    /// </remarks>
    public static class NativeHandlers
    {
        /// <summary>What receives one handler's events; called on a library thread, one at a time.</summary>
        public interface IHandler
        {
            /// <summary>One event as JSON text.</summary>
            void OnEvent(string eventJson);

            /// <summary>The library let go of this handler; no event follows.</summary>
            void OnRelease();
        }

        private static readonly ConcurrentDictionary<long, IHandler> Registered = new ConcurrentDictionary<long, IHandler>();
        private static long lastToken;

        /// <summary>The paywire_event_fn to pass with a token from <see cref="Register"/>.</summary>
        public static readonly Abi.EventCallback Events = Deliver;

        /// <summary>The paywire_free_fn to pass with a token from <see cref="Register"/>.</summary>
        public static readonly Abi.FreeCallback Release = ReleaseHandler;

        /// <summary>Keeps <paramref name="handler"/> reachable and returns the user_data that names it.</summary>
        public static IntPtr Register(IHandler handler)
        {
            long token = Interlocked.Increment(ref lastToken);
            Registered[token] = handler;
            return new IntPtr(token);
        }

        /// <summary>Forgets a handler the library never accepted (no user_data_free will come).</summary>
        public static void Unregister(IntPtr userData)
        {
            IHandler ignored;
            Registered.TryRemove(userData.ToInt64(), out ignored);
        }

        /// <summary>Handlers the library may still call; 0 once every client is freed.</summary>
        public static int LiveCount { get { return Registered.Count; } }

        [MonoPInvokeCallback(typeof(Abi.EventCallback))]
        private static void Deliver(IntPtr eventJson, IntPtr userData)
        {
            IHandler handler;
            if (eventJson == IntPtr.Zero || !Registered.TryGetValue(userData.ToInt64(), out handler)) return;
            try
            {
                handler.OnEvent(Abi.BorrowString(eventJson));
            }
            catch (Exception error)
            {
                Client.ReportFault(error);
            }
        }

        [MonoPInvokeCallback(typeof(Abi.FreeCallback))]
        private static void ReleaseHandler(IntPtr userData)
        {
            IHandler handler;
            if (!Registered.TryRemove(userData.ToInt64(), out handler)) return;
            try
            {
                handler.OnRelease();
            }
            catch (Exception error)
            {
                Client.ReportFault(error);
            }
        }
    }
}

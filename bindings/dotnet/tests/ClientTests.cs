using System;
using System.Collections.Generic;
using System.Json;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>Calls through <see cref="Client"/>: results, versions, disposing.</summary>
    public static class ClientTests
    {
        [Check]
        public static void AbiVersionIsCheckedAndVersionIsRead()
        {
            Equal(Abi.AbiVersion, Client.AbiVersion, "ABI version");
            Equal("0.2.0", Client.Version, "version");
        }

        [Check]
        public static void CallReturnsTheSuccessResult()
        {
            using (Client client = ExampleClient())
            {
                Equal("0.2.0", Text(client.Call("get_sdk_version"), "version"), "version");
            }
        }

        [Check]
        public static void PricesKeepTheDigitsTheLibraryWrote()
        {
            using (Client client = ExampleClient())
            {
                var parameters = new JsonObject { { "paywall", client.Call("get_paywall", "{\"placement_id\": \"settings\"}") } };
                var amounts = new Dictionary<string, string>();
                foreach (JsonValue product in client.Call("get_paywall_products", parameters))
                {
                    amounts[Text(product, "vendor_product_id")] = product["price"]["amount"].ToString();
                }
                Equal("9.99", amounts["premium_monthly"], "monthly amount text");
                Equal("59.99", amounts["premium_annual"], "annual amount text");
                Equal(149m, (decimal)JsonValue.Parse(amounts["lifetime"]), "lifetime amount");
            }
        }

        [Check]
        public static void ParamsTextReachesTheLibraryAsWritten()
        {
            using (Client client = ExampleClient())
            {
                PaywireException error = Raises(() => client.Call("get_paywall", "{\"placement_id\": \"caf\u00e9 \u2603\"}"));
                Equal("not_found", error.Code, "code");
                Equal("caf\u00e9 \u2603", Text(error.Details, "placement_id"), "placement id as sent");
            }
        }

        [Check]
        public static void NullResultIsNull()
        {
            using (var client = new Client("{\"profile_id\": \"p\"}"))
            {
                Check(client.Call("set_log_level", "{\"log_level\": \"error\"}") == null, "set_log_level returns null");
            }
        }

        [Check]
        public static void DisposedClientRefusesCallsAndDisposeIsIdempotent()
        {
            var client = new Client("{\"profile_id\": \"p\"}");
            client.Dispose();
            client.Dispose();
            PaywireException error = Raises(() => client.Call("get_profile"));
            Equal("closed", error.Code, "code");
            Equal(Status.Closed, error.Status, "status");
            Equal("closed", Raises(() => client.CallAsync("get_profile")).Code, "async code");
            Equal("closed", Raises(() => client.Poll(0)).Code, "poll code");
        }

        [Check]
        public static void PollReturnsNullWhenNothingIsQueued()
        {
            using (Client client = ExampleClient())
            {
                JsonObject snapshot = client.Poll(0);
                Check(snapshot != null && (string)snapshot["event"] == "did_load_latest_profile", "the profile snapshot every client starts with");
                Check(client.Poll(0) == null, "no event");
            }
        }
    }

    /// <summary>How statuses and wire error codes reach a .NET host.</summary>
    public static class ErrorMappingTests
    {
        [Check]
        public static void EveryPinnedStatusMapsToItsNameAndUnknownIsFailed()
        {
            foreach (Status status in Enum.GetValues(typeof(Status)))
            {
                Equal(status, StatusCodes.Of((int)status), "StatusCodes.Of(" + (int)status + ")");
                Equal(Abi.StatusName((int)status), status.AbiName(), "paywire_status_name(" + (int)status + ")");
            }
            Equal(Status.Failed, StatusCodes.Of(-42), "an unknown negative is Failed");
            Equal(Status.Failed, StatusCodes.Of(7), "an unknown positive is Failed");
        }

        [Check]
        public static void NotFoundIsFailedWithDetails()
        {
            using (Client client = ExampleClient())
            {
                PaywireException error = Raises(() => client.Call("get_paywall", "{\"placement_id\": \"nowhere\"}"));
                Equal("not_found", error.Code, "code");
                Equal(Status.Failed, error.Status, "status");
                Equal("nowhere", Text(error.Details, "placement_id"), "details.placement_id");
            }
        }

        [Check]
        public static void UnknownMethodWrongParamAndBadJsonKeepTheirCodes()
        {
            using (Client client = ExampleClient())
            {
                PaywireException unknown = Raises(() => client.Call("no_such_method"));
                Equal("unknown_method", unknown.Code, "unknown method code");
                Equal(Status.UnknownMethod, unknown.Status, "unknown method status");
                PaywireException wrong = Raises(() => client.Call("get_paywall", "{\"placement_id\": 42}"));
                Equal("wrong_param", wrong.Code, "wrong param code");
                Equal(Status.InvalidArgument, wrong.Status, "wrong param status");
                Equal("placement_id", Text(wrong.Details, "field"), "details.field");
                PaywireException json = Raises(() => client.Call("get_paywall", "{\"placement_id\": "));
                Equal("decoding_failed", json.Code, "bad JSON code");
                Equal(Status.InvalidJson, json.Status, "bad JSON status");
            }
        }

        [Check]
        public static void BadConfigNamesTheField()
        {
            PaywireException error = Raises(() => new Client("{\"log_level\": \"shout\"}").Dispose());
            Equal(Status.InvalidArgument, error.Status, "status");
            Equal("log_level", Text(error.Details, "field"), "details.field");
        }

        /// <summary>
        /// A refused CallAsync comes with no envelope, so the binding names the code itself: it must
        /// be the code the library writes for the same status in an envelope.
        /// </summary>
        [Check]
        public static void RefusedAsyncCallGetsTheCodeTheLibraryWouldWrite()
        {
            var madeUp = new IntPtr(0x1234);
            foreach (byte[] method in new[] { Abi.CString("get_profile"), new byte[] { 0xff, 0xfe, 0 } })
            {
                ulong callId;
                int asyncStatus = Abi.paywire_client_call_async(madeUp, method, null, out callId);
                IntPtr outJson;
                int syncStatus = Abi.paywire_client_call(madeUp, method, null, out outJson);
                JsonValue envelope = JsonValue.Parse(Abi.TakeString(outJson));
                Equal(syncStatus, asyncStatus, "same status for call and call_async");
                Equal(Text(envelope["error"], "code"), PaywireException.FromStatus(StatusCodes.Of(asyncStatus), "CallAsync").Code,
                    "code of " + StatusCodes.Of(asyncStatus));
            }
            IntPtr client, ignored;
            Equal(0, Abi.paywire_client_new(null, out client, out ignored), "client_new");
            Abi.paywire_string_free(ignored);
            try
            {
                IntPtr outJson;
                int status = Abi.paywire_client_call(client, Abi.CString("get_profile"), new byte[] { 0xc3, 0 }, out outJson);
                JsonValue envelope = JsonValue.Parse(Abi.TakeString(outJson));
                Equal(Status.InvalidUtf8, StatusCodes.Of(status), "invalid UTF-8 params");
                Equal(Text(envelope["error"], "code"), Status.InvalidUtf8.WireCode(), "invalid_utf8 code");
            }
            finally
            {
                Abi.paywire_client_free(client);
            }
        }
    }
}

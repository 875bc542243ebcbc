using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using System.Security.Cryptography;
using System.Threading;
using Paywire.Model;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>The generated typed surface: typed calls, tasks, typed events, the schema check.</summary>
    public static class TypedTests
    {
        [Check]
        public static void TypedCallsReturnModelsWithExactPrices()
        {
            using (Client client = ExampleClient())
            {
                Paywall paywall = client.GetPaywall(new GetPaywallParams { PlacementId = "settings" });
                Check(!string.IsNullOrEmpty(paywall.VariationId), "variation id");
                List<Product> products = client.GetPaywallProducts(new GetPaywallProductsParams { Paywall = paywall });
                Product monthly = products.First(p => p.VendorProductId == "premium_monthly");
                Equal(9.99m, monthly.Price.Amount, "a decimal, as the library wrote it");
                Equal("9.99", monthly.Price.Amount.Value.ToString(System.Globalization.CultureInfo.InvariantCulture), "its digits");
                Equal(Schema.Sha256, client.GetSdkVersion().SchemaSha256, "no-params overload, typed result");
            }
        }

        [Check]
        public static void MakePurchaseTakesTheProductGetPaywallProductsReturned()
        {
            using (Client client = ExampleClient())
            {
                Paywall paywall = client.GetPaywall(new GetPaywallParams { PlacementId = "onboarding" });
                Product product = client.GetPaywallProducts(new GetPaywallProductsParams { Paywall = paywall })[0];
                var parameters = new MakePurchaseParams { Product = product, Paywall = paywall };
                Equal(product.ToJson().ToString(), parameters.ToJson()["product"].ToString(), "the product is sent as its JSON");
                MakePurchaseResult result = client.MakePurchase(parameters);
                Equal("success", result.Type, "the test store buys it");
                Equal(product.VendorProductId, result.ProductId, "the product bought");
                Product none = null;
                Check(new MakePurchaseParams { Product = none }.Product == null, "a null model is absent");
            }
        }

        [Check]
        public static void CallAsyncPastTheLimitIsRefusedWithBusyAndEveryAcceptedCallIsAnswered()
        {
            // Nobody takes events while 100 calls are made: exactly async_call_limit are accepted.
            using (var client = new Client("{\"profile_id\": \"flood\", \"async_call_limit\": 8}"))
            {
                var accepted = new List<ulong>();
                int refused = 0;
                for (int i = 0; i < 100; i++)
                {
                    try
                    {
                        accepted.Add(client.CallAsync("get_profile"));
                    }
                    catch (PaywireException error)
                    {
                        Equal(Status.Busy, error.Status, "status");
                        Equal("busy", error.Code, "code");
                        Check(error.Message.Contains("async_call_limit"), "the message names the limit");
                        refused++;
                    }
                }
                Equal(8, accepted.Count, "accepted");
                Equal(92, refused, "refused");
                foreach (ulong callId in accepted) Equal("flood", (string)client.WaitFor(callId, 30000)["profile_id"], "answered");
                client.WaitFor(client.CallAsync("get_profile"), 30000);  // room again
            }
        }

        [Check]
        public static void TypedTasksPastTheLimitEachFailWithBusyOrComplete()
        {
            // 2,000 typed calls started before any is awaited, against async_call_limit 50: every
            // task settles, failed with Busy or completed.
            using (var client = new Client("{\"profile_id\": \"flood\", \"async_call_limit\": 50, \"event_queue_limit\": 16}"))
            {
                var tasks = new List<System.Threading.Tasks.Task<Profile>>();
                for (int i = 0; i < 2000; i++) tasks.Add(client.GetProfileAsync());
                int answered = 0, refused = 0;
                foreach (var task in tasks)
                {
                    try
                    {
                        Check(task.Wait(60000), "the task settled");
                        Equal("flood", task.Result.ProfileId, "profile_id");
                        answered++;
                    }
                    catch (AggregateException error)
                    {
                        Equal(Status.Busy, ((PaywireException)error.InnerException).Status, "status");
                        refused++;
                    }
                }
                Equal(2000, answered + refused, "every task settled");
                Check(answered >= 50, "at least the limit answered: " + answered);
                Equal("flood", client.GetProfileAsync().Result.ProfileId, "room again");
            }
        }

        [Check]
        public static void TasksStillWaitingWhenTheClientIsDisposedFailWithClosed()
        {
            System.Threading.Tasks.Task waiting;
            using (var client = new Client("{\"profile_id\": \"p\", \"store\": {\"type\": \"host\"}, \"host_request_timeout_ms\": 60000}"))
            {
                waiting = client.RestorePurchasesAsync();  // waits for the host's store, which never answers
                System.Threading.Thread.Sleep(200);
            }
            try
            {
                Check(waiting.Wait(10000), "the task settled");
                throw new Exception("expected closed");
            }
            catch (AggregateException error)
            {
                Equal(Status.Closed, ((PaywireException)error.InnerException).Status, "status");
            }
        }

        [Check]
        public static void AsyncCallsCompleteTheirTasksWithoutAHandler()
        {
            using (Client client = ExampleClient())
            {
                Paywall paywall = client.GetPaywallAsync(new GetPaywallParams { PlacementId = "onboarding" }).Result;
                Equal("onboarding", paywall.Placement.DeveloperId, "placement");
                try
                {
                    client.GetPaywallAsync(new GetPaywallParams { PlacementId = "nowhere" }).Wait();
                    throw new Exception("expected not_found");
                }
                catch (AggregateException error)
                {
                    Equal("not_found", ((PaywireException)error.InnerException).Code, "the call's error");
                }
                Equal("did_load_latest_profile", client.PollEvent(1000).Event, "events the pump took wait for the host's poll");
            }
        }

        [Check]
        public static void AsyncCallsCompleteThroughATypedHandler()
        {
            using (Client client = ExampleClient())
            {
                var events = new List<IEvent>();
                client.SetTypedEventHandler(evt => { lock (events) events.Add(evt); });
                Paywall paywall = client.GetPaywallAsync(new GetPaywallParams { PlacementId = "onboarding" }).Result;
                View view = client.CreatePaywallView(new CreatePaywallViewParams { Paywall = paywall });
                client.PresentPaywallViewAsync(new PresentPaywallViewParams { ViewId = view.Id }).Wait();
                for (int i = 0; i < 500 && !Seen(events, e => e is PaywallViewDidAppearEvent); i++) Thread.Sleep(10);
                Check(Seen(events, e => e is PaywallViewDidAppearEvent), "typed appear event");
                Check(!Seen(events, e => e.Event == "call_result"), "call results went to their tasks");
            }
        }

        [Check]
        public static void ALibraryOfTheSameMajorAndANewerMinorIsAcceptedAnyOtherRefusedNamingBoth()
        {
            string ours;
            using (var sha = SHA256.Create())
            {
                ours = string.Concat(sha.ComputeHash(File.ReadAllBytes(Path.Combine(Root, "schema", "paywire.schema.json"))).Select(b => b.ToString("x2")));
            }
            Equal(ours, Schema.Sha256, "the binding carries the schema's hash");
            using (Client client = ExampleClient())
            {
                Equal(Schema.Version, (string)((JsonObject)client.Call("get_sdk_version"))["schema_version"], "the library says our version");
            }
            foreach (var pair in new[] { new[] { "1.1", "1.1" }, new[] { "1.2", "1.1" }, new[] { "1.10", "1.9" } })
            {
                Check(Client.SchemaMismatch(pair[0], pair[1]) == null, "accepted: library " + pair[0] + ", binding " + pair[1]);
            }
            foreach (var pair in new[] { new[] { "1.0", "1.1" }, new[] { "2.0", "1.1" }, new[] { null, "1.1" }, new[] { "1", "1.1" } })
            {
                PaywireException refused = Client.SchemaMismatch(pair[0], pair[1]);
                Check(refused != null, "refused: library " + pair[0] + ", binding " + pair[1]);
                Equal(Status.VersionMismatch, refused.Status, "status");
                Equal("schema_mismatch", refused.Code, "code");
                JsonValue library = refused.Details["library_schema_version"];
                Equal(pair[0], library == null ? null : (string)library, "library version");
                Equal(pair[1], (string)refused.Details["binding_schema_version"], "binding version");
                Check(refused.Message.Contains(pair[0] ?? "") && refused.Message.Contains(pair[1]), "message names both");
            }
        }

        [Check]
        public static void WhatTheLibraryWritesRoundTrips()
        {
            using (Client client = ExampleClient())
            {
                JsonValue paywall = Live(client, "get_paywall", "{\"placement_id\": \"onboarding\", \"locale\": \"fr\"}");
                JsonValue products = Live(client, "get_paywall_products", "{\"paywall\": " + paywall.ToString() + "}");
                string product = products[0]["vendor_product_id"];
                string view = Live(client, "create_paywall_view", "{\"paywall\": " + paywall.ToString() + "}")["id"];
                client.PresentPaywallView(new PresentPaywallViewParams { ViewId = view });
                client.PaywallViewMakePurchase(new PaywallViewMakePurchaseParams { ViewId = view, ProductId = product });
                Live(client, "get_profile", null);
                var names = new HashSet<string>();
                for (JsonObject evt = client.Poll(500); evt != null; evt = client.Poll(500))
                {
                    IEvent typed = Events.Parse(evt);
                    Check(!(typed is UnknownEvent), "known event " + typed.Event);
                    RoundTripTests.Same(evt, typed.ToJson());
                    names.Add(typed.Event);
                }
                Check(names.Contains("paywall_view_did_appear") && names.Contains("paywall_view_did_finish_purchase"), "events: " + string.Join(",", names));
            }
        }

        private static JsonValue Live(Client client, string method, string parameters)
        {
            JsonValue result = client.Call(method, parameters);
            RoundTripTests.Same(result, Results.ResultRoundTrip[method](result));
            return result;
        }

        private static bool Seen(List<IEvent> events, Func<IEvent, bool> match)
        {
            lock (events) return events.Any(match);
        }
    }
}

package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.exampleClient;

import com.google.gson.JsonElement;
import dev.paywire.model.CreatePaywallViewParams;
import dev.paywire.model.Event;
import dev.paywire.model.Events;
import dev.paywire.model.GetPaywallParams;
import dev.paywire.model.GetPaywallProductsParams;
import dev.paywire.model.MakePurchaseParams;
import dev.paywire.model.MakePurchaseResult;
import dev.paywire.model.PaywallViewDidAppearEvent;
import dev.paywire.model.PaywallViewMakePurchaseParams;
import dev.paywire.model.PresentPaywallViewParams;
import dev.paywire.model.Paywall;
import dev.paywire.model.Product;
import dev.paywire.model.Results;
import dev.paywire.model.Schema;
import dev.paywire.model.UnknownEvent;
import dev.paywire.model.View;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** The generated typed surface: typed calls, futures, typed events, the schema check. */
final class TypedTest {
    private TypedTest() {
    }

    @TestMain.Check
    public static void typedCallsReturnModelsWithExactPrices() throws Exception {
        try (Client client = exampleClient()) {
            Paywall paywall = client.getPaywall(new GetPaywallParams().withPlacementId("settings"));
            check(!paywall.getVariationId().isEmpty(), "variation id");
            List<Product> products = client.getPaywallProducts(new GetPaywallProductsParams().withPaywall(paywall));
            Product monthly = products.stream().filter(p -> p.getVendorProductId().equals("premium_monthly")).findFirst().get();
            equal(new BigDecimal("9.99"), monthly.getPrice().getAmount(), "a BigDecimal, as the library wrote it");
            equal(Schema.SHA256, client.getSdkVersion().getSchemaSha256(), "no-params overload, typed result");
        }
    }

    @TestMain.Check
    public static void makePurchaseTakesTheProductGetPaywallProductsReturned() throws Exception {
        try (Client client = exampleClient()) {
            Paywall paywall = client.getPaywall(new GetPaywallParams().withPlacementId("onboarding"));
            Product product = client.getPaywallProducts(new GetPaywallProductsParams().withPaywall(paywall)).get(0);
            MakePurchaseParams params = new MakePurchaseParams().withProduct(product).withPaywall(paywall);
            equal(product.toJson(), params.toJson().get("product"), "the product is sent as its JSON");
            MakePurchaseResult result = client.makePurchase(params);
            equal("success", result.getType(), "the test store buys it");
            equal(product.getVendorProductId(), result.getProductId(), "the product bought");
            check(new MakePurchaseParams().withProduct((Product) null).getProduct() == null, "a null model is absent");
        }
    }

    @TestMain.Check
    public static void asyncCallsCompleteTheirFuturesWithoutAHandler() throws Exception {
        try (Client client = exampleClient()) {
            CompletableFuture<Paywall> paywall = client.getPaywallAsync(new GetPaywallParams().withPlacementId("onboarding"));
            equal("onboarding", paywall.get(5, TimeUnit.SECONDS).getPlacement().getDeveloperId(), "placement");
            CompletableFuture<Paywall> missing = client.getPaywallAsync(new GetPaywallParams().withPlacementId("nowhere"));
            try {
                missing.get(5, TimeUnit.SECONDS);
                throw new AssertionError("expected not_found");
            } catch (ExecutionException error) {
                equal("not_found", ((PaywireException) error.getCause()).code(), "the call's error");
            }
            check(client.poll(1000).get("event").getAsString().equals("did_load_latest_profile"),
                    "events the pump took wait for the host's poll, in order");
        }
    }

    @TestMain.Check
    public static void asyncCallsCompleteThroughATypedHandler() throws Exception {
        try (Client client = exampleClient()) {
            List<Event> events = new ArrayList<>();
            client.setTypedEventHandler(event -> {
                synchronized (events) {
                    events.add(event);
                }
            });
            Paywall paywall = client.getPaywallAsync(new GetPaywallParams().withPlacementId("onboarding")).get(5, TimeUnit.SECONDS);
            View view = client.createPaywallView(new CreatePaywallViewParams().withPaywall(paywall));
            client.presentPaywallViewAsync(new PresentPaywallViewParams().withViewId(view.getId())).get(5, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline && events.stream().noneMatch(e -> e instanceof PaywallViewDidAppearEvent)) {
                Thread.sleep(10);
            }
            synchronized (events) {
                check(events.stream().anyMatch(e -> e instanceof PaywallViewDidAppearEvent), "typed appear event: " + events);
                check(events.stream().noneMatch(e -> e.getEvent().equals("call_result")), "call results went to their futures");
            }
        }
    }

    @TestMain.Check
    public static void aLibraryOfTheSameMajorAndANewerMinorIsAcceptedAnyOtherRefusedNamingBoth() throws Exception {
        String ours = hex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(TestMain.root().resolve("schema/paywire.schema.json"))));
        equal(ours, Schema.SHA256, "the binding carries the schema's hash");
        try (Client client = exampleClient()) {
            equal(Schema.VERSION, client.call("get_sdk_version").getAsJsonObject().get("schema_version").getAsString(), "the library says our version");
        }
        for (String[] accepted : new String[][] {{"1.1", "1.1"}, {"1.2", "1.1"}, {"1.10", "1.9"}}) {
            check(Client.schemaMismatch(accepted[0], accepted[1]) == null, "accepted: library " + accepted[0] + ", binding " + accepted[1]);
        }
        for (String[] refusedPair : new String[][] {{"1.0", "1.1"}, {"2.0", "1.1"}, {null, "1.1"}, {"1", "1.1"}}) {
            PaywireException refused = Client.schemaMismatch(refusedPair[0], refusedPair[1]);
            check(refused != null, "refused: library " + refusedPair[0] + ", binding " + refusedPair[1]);
            equal(Status.VERSION_MISMATCH, refused.status(), "status");
            equal("schema_mismatch", refused.code(), "code");
            JsonElement library = refused.details().get("library_schema_version");
            equal(refusedPair[0], library.isJsonNull() ? null : library.getAsString(), "library version");
            equal(refusedPair[1], refused.details().get("binding_schema_version").getAsString(), "binding version");
            check(refused.getMessage().contains(String.valueOf(refusedPair[0])) && refused.getMessage().contains(refusedPair[1]), "message names both");
        }
    }

    @TestMain.Check
    public static void whatTheLibraryWritesRoundTrips() throws Exception {
        try (Client client = exampleClient()) {
            JsonElement paywall = live(client, "get_paywall", "{\"placement_id\": \"onboarding\", \"locale\": \"fr\"}");
            JsonElement products = live(client, "get_paywall_products", "{\"paywall\": " + Json.write(paywall) + "}");
            String product = products.getAsJsonArray().get(0).getAsJsonObject().get("vendor_product_id").getAsString();
            String view = live(client, "create_paywall_view", "{\"paywall\": " + Json.write(paywall) + "}").getAsJsonObject().get("id").getAsString();
            client.presentPaywallView(new PresentPaywallViewParams().withViewId(view));
            client.paywallViewMakePurchase(new PaywallViewMakePurchaseParams().withViewId(view).withProductId(product));
            live(client, "get_profile", null);
            Set<String> names = new HashSet<>();
            for (var event = client.poll(500); event != null; event = client.poll(500)) {
                Event typed = Events.parse(event);
                check(!(typed instanceof UnknownEvent), "known event " + typed.getEvent());
                RoundTripTest.same(event, typed.toJson());
                names.add(typed.getEvent());
            }
            check(names.contains("paywall_view_did_appear") && names.contains("paywall_view_did_finish_purchase"), "events: " + names);
        }
    }

    private static JsonElement live(Client client, String method, String params) {
        JsonElement result = client.call(method, params);
        RoundTripTest.same(result, Results.RESULT_ROUND_TRIP.get(method).apply(result));
        return result;
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }
}

// The README's quick start, typed: `make check-node-types` runs tsc --noEmit --strict on it
// against index.d.ts, as a TypeScript host would compile it. Each `@ts-expect-error` line is a
// mistake the declarations must refuse: tsc fails when such a line compiles.
import { Client, Decimal, PaywireError, Event, Paywall, Product, MakePurchaseResult, SCHEMA_VERSION } from '../../index';

export async function quickStart(config: { [key: string]: any }): Promise<string> {
  const client = new Client(config);
  client.on('event', (event: Event) => {
    switch (event.event) {
      case 'did_load_latest_profile': console.log('profile', event.profile.profile_id); break;  // narrowed
      default: console.log('event', event.seq, event.event);
    }
  });
  try {
    const paywall: Paywall = client.getPaywall({ placement_id: 'onboarding', locale: 'fr' });
    const products: Product[] = await client.getPaywallProductsAsync({ paywall });
    const amount: Decimal = products[0].price.amount;
    // The product getPaywallProducts returned, as it is.
    const purchase: MakePurchaseResult = await client.makePurchaseAsync({ product: products[0], paywall });
    return `${purchase.type} ${purchase.product_id} ${String(amount)} schema ${SCHEMA_VERSION}`;
  } catch (error) {
    if (error instanceof PaywireError) return `${error.code} ${error.status}`;
    throw error;
  } finally {
    client.close();
  }
}

export function mistakes(client: Client, paywall: Paywall): void {
  // @ts-expect-error placement_id is a string
  client.getPaywall({ placement_id: 42 });
  // @ts-expect-error getPaywallProducts needs its params (the paywall)
  client.getPaywallProducts();
  // @ts-expect-error a price's amount is a Decimal, not a number
  const amount: number = client.getPaywallProducts({ paywall })[0].price.amount;
  void amount;
  client.on('event', (event: Event) => {
    // @ts-expect-error only did_load_latest_profile carries a profile
    if (event.event === 'call_result') console.log(event.profile);
  });
}

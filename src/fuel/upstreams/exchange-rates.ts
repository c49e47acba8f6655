/** Euro reference rates from the central bank's daily XML, kept in memory. */
import { SaxesParser } from 'saxes';
import type { components } from '../../../generated/fuel/types';
import type { ExchangeRatesConfig } from '../config';
import { UpstreamFailure } from '../model/errors';

export type ExchangeRatesBody = components['schemas']['ExchangeRates'];

export const RATES_FAILED = 'Failed to fetch exchange rates';

/** Units per euro for currencies the feed does not publish; used only when the feed lacks them. */
export const FIXED_RATES: Readonly<Record<string, number>> = Object.freeze({
  BAM: 1.95583,
  MKD: 61.5,
  RSD: 117,
  ARS: 1200,
  MDL: 19.5,
  ISK: 140,
  TWD: 36,
});

/**
 * `<Cube time='YYYY-MM-DD'>` with `<Cube currency='USD' rate='1.1592'/>` children, read by an XML parser in
 * one pass (saxes). The daily file holds one dated cube; the 90-day and full history files hold one per
 * day, newest first by the bank's habit. The newest date wins whatever the order.
 */
export function parseEcbXml(xml: string): { date: string; rates: Record<string, number> } {
  const days = new Map<string, Record<string, number>>();
  let day: Record<string, number> | undefined;
  const parser = new SaxesParser();
  parser.on('error', () => undefined);
  parser.on('opentag', (tag) => {
    if (tag.name !== 'Cube') return;
    const { time, currency, rate } = tag.attributes as Record<string, string | undefined>;
    if (time !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(time)) {
      day = days.get(time) ?? {};
      days.set(time, day);
    } else if (day && currency && /^[A-Z]{3}$/.test(currency)) {
      const value = Number(rate);
      if (Number.isFinite(value) && value > 0) day[currency] = value;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'Cube' && (tag.attributes as Record<string, unknown>).time !== undefined)
      day = undefined;
  });
  parser.write(xml).close();
  const date = [...days.keys()].sort().at(-1);
  const rates: Record<string, number> = { EUR: 1, ...(date ? days.get(date) : {}) };
  if (!date || Object.keys(rates).length < 2) throw new Error('no reference rates in the feed');
  for (const [currency, value] of Object.entries(FIXED_RATES)) rates[currency] ??= value;
  return { date, rates };
}

export interface RatesAnswer {
  body: ExchangeRatesBody;
  stale: boolean;
}

export class ExchangeRates {
  private copy: { date: string; rates: Record<string, number>; fetchedAt: number } | undefined;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly config: ExchangeRatesConfig,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  private async refresh(): Promise<void> {
    const res = await this.fetchImpl(this.config.url, { signal: AbortSignal.timeout(this.config.timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`rate feed answered ${res.status}`);
    }
    this.copy = { ...parseEcbXml(await res.text()), fetchedAt: this.now() };
  }

  /** The rates: from memory within the cache time, else fetched; an older copy when the fetch fails. */
  async get(): Promise<RatesAnswer> {
    const copy = this.copy;
    if (copy && this.now() - copy.fetchedAt < this.config.cacheMs) {
      return { body: { base: 'EUR', rates: copy.rates, date: copy.date }, stale: false };
    }
    // Callers arriving during one fetch share it rather than each asking the feed.
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    try {
      await this.pending;
    } catch (error) {
      if (!this.copy) throw new UpstreamFailure(RATES_FAILED, { cause: error });
      const { date, rates } = this.copy;
      return { body: { base: 'EUR', rates, date, stale: true }, stale: true };
    }
    const fresh = this.copy as NonNullable<typeof this.copy>;
    return { body: { base: 'EUR', rates: fresh.rates, date: fresh.date }, stale: false };
  }
}

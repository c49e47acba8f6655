/** The fuel API's types and words for the page, and the NDJSON reader of the detour stream. */
import type { createFuelClient } from '../../generated/fuel/client';
import { FuelCodeLabels } from '../../generated/fuel/labels';
import type { components } from '../../generated/fuel/types';

export type Station = components['schemas']['StationFeature'];
export type FuelCode = components['schemas']['FuelCode'];
export type Config = components['schemas']['ConfigResponse'];
export type Route = components['schemas']['Route'];
export type GeocodeResult = components['schemas']['GeocodeResult'];
export type DetourStation = components['schemas']['DetourStation'];
export type DetourResult = components['schemas']['DetourResult'];
export type LonLat = components['schemas']['LonLat'];

/**
 * The fuels the page offers, in the document's order and words (`x-enum-labels` of FuelCode): the sixteen
 * of the upstream's own page among them (a share link with any of them works).
 */
export const FUELS: { code: FuelCode; label: string }[] = Object.entries(FuelCodeLabels).map(
  ([code, label]) => ({
    code: code as FuelCode,
    label: label ?? code,
  }),
);

/**
 * The fuels the page offers for a country: those its feeds carry (`/api/config`, `fuels`), in the list's
 * order, and the one chosen now (a shared link may name another); every fuel when the server names none
 * for it (no feed scheduled, as in the demo).
 */
export function offeredFuels(carried: readonly FuelCode[] | undefined, chosen: FuelCode) {
  if (!carried || carried.length === 0) return FUELS;
  return FUELS.filter((f) => carried.includes(f.code) || f.code === chosen);
}

/** The generated client's type; the page's own, bound to its origin, is in client.ts. */
export type FuelApi = ReturnType<typeof createFuelClient>;

/** The error text of a fuel API answer (`{error}`), or the status. */
export function problem(result: { error?: unknown; response: Response }): string {
  const body = result.error as { error?: string } | undefined;
  return body?.error ?? `HTTP ${result.response.status}`;
}

/** Reads `{id, detourMin}` lines as they arrive. */
export async function readDetours(
  stream: ReadableStream<Uint8Array>,
  onLine: (result: DetourResult) => void,
): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += decoder.decode(value, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onLine(JSON.parse(line) as DetourResult);
      newline = buffered.indexOf('\n');
    }
    if (done) break;
  }
  if (buffered.trim()) onLine(JSON.parse(buffered) as DetourResult);
}

/**
 * A point typed by hand, latitude first as map apps write it (`40.4168, -3.7038`) and as the place
 * search reads it (`GET /api/geocode`); read the other way round only when the first number cannot be a
 * latitude. Undefined when the text is no point.
 */
export function parseTypedPoint(text: string): LonLat | undefined {
  const match = TWO_NUMBERS.exec(text);
  if (!match) return undefined;
  const [a, b] = [Number(match[1]), Number(match[2])];
  if (Math.abs(a) <= 90 && Math.abs(b) <= 180) return [b, a];
  if (Math.abs(a) <= 180 && Math.abs(b) <= 90) return [a, b];
  return undefined;
}

const TWO_NUMBERS = /^\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*$/;

/** `lon, lat` as the page writes it in its own addresses (`?at=`), or undefined. */
export function parseLonLat(text: string): LonLat | undefined {
  const match = TWO_NUMBERS.exec(text);
  if (!match) return undefined;
  const lon = Number(match[1]);
  const lat = Number(match[2]);
  return Math.abs(lon) <= 180 && Math.abs(lat) <= 90 ? [lon, lat] : undefined;
}

export const formatPrice = (station: Station) =>
  station.properties.price === undefined
    ? ''
    : new Intl.NumberFormat(undefined, {
        style: 'currency',
        currency: station.properties.currency,
        minimumFractionDigits: 3,
        maximumFractionDigits: 3,
      }).format(station.properties.price);

/** A share link: the station's durable identity (country and externalId), where it is, and the fuel. */
export function shareLink(station: Station, fuel: FuelCode): string {
  const [lon = 0, lat = 0] = station.geometry.coordinates;
  const params = new URLSearchParams({
    station: `${station.properties.country}:${station.properties.externalId}`,
    at: `${lon.toFixed(5)},${lat.toFixed(5)}`,
    fuel,
  });
  return `${window.location.origin}${window.location.pathname}#${params}`;
}

export interface SharedStation {
  country: string;
  externalId: string;
  at: LonLat;
  fuel?: FuelCode;
}

export function readShareLink(hash: string): SharedStation | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const station = params.get('station');
  const at = parseLonLat(params.get('at') ?? '');
  if (!station || !at) return undefined;
  const split = station.indexOf(':');
  if (split < 0) return undefined;
  const fuel = params.get('fuel');
  return {
    country: station.slice(0, split),
    externalId: station.slice(split + 1),
    at,
    ...(FUELS.some((f) => f.code === fuel) && { fuel: fuel as FuelCode }),
  };
}

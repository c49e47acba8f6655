/**
 * A synthetic Spanish fuel feed for the load benchmark: `count` stations in the feed's own JSON form (each a
 * copy of the fixture's first station with its own id, place and four prices), served on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from '../../src/common/services';

/**
 * The feed's answer with `count` stations, each a copy of the fixture's first with its own id, place and
 * prices, made piece by piece as it is sent: a 1,000,000-station answer (over 1 GB) is never one text.
 */
function* spanishFeed(count: number): Generator<Buffer> {
  const fixture = JSON.parse(
    readFileSync(path.join(ROOT, 'src/fuel/scrapers/fixtures/es-estaciones-terrestres.json'), 'utf8'),
  ) as { Fecha: string; ListaEESSPrecio: Record<string, string>[] };
  const template = fixture.ListaEESSPrecio[0] as Record<string, string>;
  const comma = (value: number, digits: number) => value.toFixed(digits).replace('.', ',');
  const station = (i: number) => ({
    ...template,
    IDEESS: String(100_000 + i),
    Rótulo: `BENCH ${i % 50}`,
    Latitud: comma(36 + ((i * 7919) % 7000) / 1000, 6),
    'Longitud (WGS84)': comma(-9 + ((i * 104729) % 12000) / 1000, 6),
    'Precio Gasoleo A': comma(1.4 + (i % 100) / 1000, 3),
    'Precio Gasolina 95 E5': comma(1.5 + (i % 100) / 1000, 3),
    'Precio Gasolina 98 E5': comma(1.6 + (i % 100) / 1000, 3),
    'Precio Gasoleo Premium': comma(1.45 + (i % 100) / 1000, 3),
  });
  // The list's place in the answer is where the fixture has it: the result code comes after it.
  const [head, tail] = JSON.stringify({ ...fixture, ListaEESSPrecio: [0] }).split('[0]') as [string, string];
  yield Buffer.from(`${head}[`);
  for (let i = 0; i < count; i += 1000) {
    const part = Array.from({ length: Math.min(1000, count - i) }, (_, j) => JSON.stringify(station(i + j)));
    yield Buffer.from(`${i > 0 ? ',' : ''}${part.join(',')}`);
  }
  yield Buffer.from(`]${tail}`);
}

export async function startSpanishFeed(count: number): Promise<{ url: string; close(): void }> {
  const feed = http.createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const piece of spanishFeed(count)) {
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const { port } = feed.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => feed.close() };
}
